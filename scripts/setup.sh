#!/usr/bin/env bash
# Lectern's one set-up step, used by both README commands: install what is
# missing (Debian 12, as root or with sudo), configure, build. Idempotent and
# quick when nothing is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ meson ninja-build pkg-config
          libopenblas-dev libfmt-dev catch2 zlib1g-dev
          libcli11-dev libstb-dev dataset-fashion-mnist fortunes)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "setup: all packages present"
fi

if [ ! -f build/build.ninja ]; then
  echo "setup: configuring build/ (release)"
  meson setup build --buildtype=release >/dev/null
fi
echo "setup: building (ninja -C build)"
ninja -C build | tail -n 1
