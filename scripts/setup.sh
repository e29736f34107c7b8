#!/usr/bin/env bash
# Lectern's one set-up step, used by both README commands: install what is
# missing (Debian 12, as root or with sudo: the section [setup] of
# scripts/packages.txt), configure, build. Idempotent and
# quick when nothing is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install_packages.sh setup

if [ ! -f build/build.ninja ]; then
  echo "setup: configuring build/ (release, portable instruction set)"
  meson setup build --buildtype=release >/dev/null
fi
echo "setup: building (ninja -C build)"
ninja -C build | tail -n 1
