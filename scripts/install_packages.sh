#!/usr/bin/env bash
# install_packages.sh SECTION...: installs the Debian packages of those sections of
# scripts/packages.txt that are missing (as root, or through sudo), and says what it does.
set -euo pipefail
list=$(dirname "$0")/packages.txt
wanted=()
for section in "$@"; do
  grep -q "^\[$section\]$" "$list" || { echo "install_packages.sh: no section [$section] in $list" >&2; exit 2; }
  # The section's lines up to the next [header]: the first word of each that is not a comment.
  wanted+=($(sed -n "/^\[$section\]$/,/^\[/{/^\[/d; s/#.*//; p}" "$list" | awk 'NF { print $1 }'))
done
missing=()
for p in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
