#!/usr/bin/env bash
# damaged_sword_module.sh [--conf MODULE KEY=VALUE] EXPECT_ERROR STATUS TEXT [--quiet] -- PROGRAM ARGS...
# Runs expect_error.sh with SWORD_PATH naming a library that holds copies of the KJV and WEB
# modules, damaged. By default the KJV's compressed Old Testament is overwritten with zeros:
# SWORD would print a line for every verse and return empty ones. With --conf, MODULE's .conf
# says KEY=VALUE instead of what the module is stored in (its versification, its encoding):
# SWORD would read the verses under other references, or as other letters, silently. Either
# way the program must say, in one line, that the module is damaged and which package to
# reinstall.
set -uo pipefail
conf_module= conf_line=
[ "$1" = --conf ] && { conf_module=$2 conf_line=$3; shift 3; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for module in engKJV2006eb engWEB2015eb; do
  mkdir -p "$dir/mods.d" "$dir/modules/texts/ztext/$module"
  cp /usr/share/sword/mods.d/$module.conf "$dir/mods.d/"
  cp /usr/share/sword/modules/texts/ztext/$module/* "$dir/modules/texts/ztext/$module/"
done
if [ -n "$conf_module" ]; then
  key=${conf_line%%=*}
  sed -i "s/^$key=.*/$conf_line/" "$dir/mods.d/$conf_module.conf"
  grep -qx "$conf_line" "$dir/mods.d/$conf_module.conf" || { echo "FAIL: $conf_module.conf has no $key line to change"; exit 1; }
else
  data=modules/texts/ztext/engKJV2006eb
  head -c "$(stat -c %s "$dir/$data/ot.bzz")" /dev/zero >"$dir/$data/ot.bzz"
fi
expect_error=$1
shift
SWORD_PATH=$dir "$expect_error" "$@"
