#!/usr/bin/env bash
# damaged_sword_module.sh EXPECT_ERROR STATUS TEXT [--quiet] -- PROGRAM ARGS...
# Runs expect_error.sh with SWORD_PATH naming a library that holds copies of the KJV and WEB
# modules, the KJV's compressed Old Testament overwritten with zeros: SWORD would print a
# line for every verse and return empty ones; the program must say, in one line, that the
# module is damaged and which package to reinstall.
set -uo pipefail
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for module in engKJV2006eb engWEB2015eb; do
  mkdir -p "$dir/mods.d" "$dir/modules/texts/ztext/$module"
  cp /usr/share/sword/mods.d/$module.conf "$dir/mods.d/"
  cp /usr/share/sword/modules/texts/ztext/$module/* "$dir/modules/texts/ztext/$module/"
done
data=modules/texts/ztext/engKJV2006eb
head -c "$(stat -c %s "$dir/$data/ot.bzz")" /dev/zero >"$dir/$data/ot.bzz"
expect_error=$1
shift
SWORD_PATH=$dir "$expect_error" "$@"
