#!/usr/bin/env bash
# Lectern's one set-up step, used by both README commands: install what is
# missing (Debian 12, as root or with sudo), configure, build. Idempotent and
# quick when nothing is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install_packages.sh g++ meson ninja-build pkg-config \
  libopenblas-openmp-dev libfmt-dev catch2 zlib1g-dev libcli11-dev libplplot-dev plplot-driver-cairo libpng-dev \
  dataset-fashion-mnist fortunes libopenmpi-dev openmpi-bin libpcre2-dev nlohmann-json3-dev \
  libsword-dev sword-text-kjv sword-text-web sword-text-sparv strace chromium cmake

if [ ! -f build/build.ninja ]; then
  echo "setup: configuring build/ (release, portable instruction set)"
  meson setup build --buildtype=release >/dev/null
fi
echo "setup: building (ninja -C build)"
ninja -C build | tail -n 1
