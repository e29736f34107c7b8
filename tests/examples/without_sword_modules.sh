#!/usr/bin/env bash
# without_sword_modules.sh PROGRAM ARGS...
# Runs the program with SWORD_PATH naming an empty module library (a folder
# with an empty mods.d), as on a machine where no sword-text-* is installed.
set -uo pipefail
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/mods.d"
SWORD_PATH=$dir "$@"
