#!/usr/bin/env bash
# Regenerates the runs quoted by docs/start-here.md's answers: each block between the markers
#   <!-- route_doc.sh NAME -->  ...  <!-- end NAME -->
# holds one or more lines `$ COMMAND`; the script runs each command from a scratch directory in
# which `build` is the build directory (so `--figures figures` writes there, not into the
# repository), and puts what it printed under its command. Progress bars are kept only when full
# (the last line of an epoch, with its learning rate). tests/docs/quoted_numbers.py then holds
# every number of the page's answers to the block it cites.
#   scripts/route_doc.sh [BUILD_DIR] [NAME ...]     (default: build, every block)
# The blocks run two at a time (JOBS=1 for one); their commands carry their own --threads.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build}")
[ $# -gt 0 ] && shift
page=docs/start-here.md
out="$build/route_doc"
rm -rf "$out"
mkdir -p "$out/scratch"
ln -s "$build" "$out/scratch/build"
names=("$@")
[ ${#names[@]} -gt 0 ] || mapfile -t names < <(sed -n 's/^<!-- route_doc.sh \([a-z0-9-]*\) -->$/\1/p' "$page")
# The commands of each block, one file per block.
python3 - "$page" "$out" "${names[@]}" <<'PY'
import re, sys
page, out, names = sys.argv[1], sys.argv[2], sys.argv[3:]
doc = open(page).read()
for name in names:
    m = re.search(rf"<!-- route_doc.sh {re.escape(name)} -->\n```\n(.*?)```\n<!-- end {re.escape(name)} -->", doc, re.S)
    if not m:
        sys.exit(f"route_doc.sh: {page} has no block {name}")
    commands = [l[2:] for l in m.group(1).splitlines() if l.startswith("$ ")]
    if not commands:
        sys.exit(f"route_doc.sh: block {name} has no line '$ COMMAND'")
    open(f"{out}/{name}.commands", "w").write("\n".join(commands) + "\n")
PY
run_one() {
    local name=$1 command
    : >"$out/$name.txt"
    while IFS= read -r command; do
        printf '$ %s\n' "$command" >>"$out/$name.txt"
        (cd "$out/scratch" && bash -c "$command" 2>&1) | grep -v -e '^\[[#.]*[.][#.]*\]' -e '^figure written:' \
            >>"$out/$name.txt" || true
    done <"$out/$name.commands"
    echo "route_doc.sh: $name done"
}
export -f run_one
export out
printf '%s\n' "${names[@]}" | xargs -P "${JOBS:-2}" -I{} bash -c 'run_one {}'
python3 - "$page" "$out" "${names[@]}" <<'PY'
import re, sys
page, out, names = sys.argv[1], sys.argv[2], sys.argv[3:]
doc = open(page).read()
for name in names:
    text = open(f"{out}/{name}.txt").read()
    block = f"<!-- route_doc.sh {name} -->\n```\n{text}```\n<!-- end {name} -->"
    pattern = re.compile(rf"<!-- route_doc.sh {re.escape(name)} -->\n```\n.*?```\n<!-- end {re.escape(name)} -->", re.S)
    doc = pattern.sub(lambda m: block, doc)
open(page, "w").write(doc)
print(f"route_doc.sh: {page} updated for {' '.join(names)}")
PY
