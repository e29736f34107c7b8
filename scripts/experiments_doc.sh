#!/usr/bin/env bash
# Regenerates every number and figure of docs/experiments.md from the current build: runs each
# experiment in full, draws its figures into docs/figures, and puts what it printed, with its
# command and the CPU seconds it took, between the markers of its section:
#   <!-- experiments_doc.sh NAME -->  ...  <!-- end NAME -->
#   scripts/experiments_doc.sh [BUILD_DIR] [NAME ...]     (default: build, every experiment)
# The experiments run two at a time (JOBS=1 for one), each with --threads 1; COLLECT_ONLY=1
# rewrites the docs from build/experiments_doc without running anything. CPU seconds
# depend on the machine and its load; the tables' means and standard errors over seeds do not.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
[ $# -gt 0 ] && shift
program="$build/examples/experiments"
[ -x "$program" ] || { echo "experiments_doc.sh: $program not built (ninja -C $build examples/experiments)" >&2; exit 1; }
names=("$@")
[ ${#names[@]} -gt 0 ] || mapfile -t names < <("$program" --list | cut -d' ' -f1)
out="$build/experiments_doc"
mkdir -p "$out" docs/figures
run_one() {
    local name=$1 command="./build/examples/experiments $1 --figures docs/figures --threads 1"
    local start end
    start=$(date +%s)
    # bash's `time`: the user and system CPU seconds of the run.
    local TIMEFORMAT='%U %S' status=0
    { time "$program" "$name" --figures docs/figures --threads 1 >"$out/$name.txt" 2>&1 || status=$?; } 2>"$out/$name.times"
    echo "$status" >"$out/$name.status"
    end=$(date +%s)
    echo "$command" >"$out/$name.command"
    echo "${JOBS:-2}" >"$out/$name.jobs"
    echo $((end - start)) >"$out/$name.wall"
    echo "experiments_doc.sh: $name done (status $(cat "$out/$name.status"), $((end - start)) s of wall time)"
}
export -f run_one
export program out
# COLLECT_ONLY=1 writes the docs from the outputs of an earlier run, running nothing.
[ "${COLLECT_ONLY:-0}" = 1 ] || printf '%s\n' "${names[@]}" | xargs -P "${JOBS:-2}" -I{} bash -c 'run_one {}'
python3 - "$out" "${names[@]}" <<'PY'
import re, sys
out, names = sys.argv[1], sys.argv[2:]
path = "docs/experiments.md"
doc = open(path).read()
def beside(name):  # what ran beside it: JOBS experiments at a time
    try:
        jobs = int(open(f"{out}/{name}.jobs").read())
    except (OSError, ValueError):
        jobs = 2
    words = {2: "two", 3: "three", 4: "four"}
    return "with no other experiment" if jobs == 1 else f"with {words.get(jobs, jobs)} experiments at a time"
def seconds(t):  # "12.34 0.56": user and system seconds -> 12.9
    return sum(float(x) for x in t.split())
for name in names:
    text = open(f"{out}/{name}.txt").read()
    text = "\n".join(l for l in text.splitlines() if not l.startswith("figure written:"))
    status = open(f"{out}/{name}.status").read().strip()
    cpu = seconds(open(f"{out}/{name}.times").read())
    command = open(f"{out}/{name}.command").read().strip()
    block = (f"<!-- experiments_doc.sh {name} -->\n```\n$ {command}\n{text}\n```\n"
             f"(exit status {status}; {cpu:.0f} s of CPU time and {open(f'{out}/{name}.wall').read().strip()} s of wall "
             f"time {beside(name)} on the shared 2-core machine: machine-dependent, unlike the "
             f"means and standard errors over seeds)\n<!-- end {name} -->")
    pattern = re.compile(rf"<!-- experiments_doc.sh {re.escape(name)} -->.*?<!-- end {re.escape(name)} -->", re.S)
    if not pattern.search(doc):
        sys.exit(f"experiments_doc.sh: docs/experiments.md has no markers for {name}")
    doc = pattern.sub(lambda m: block, doc)
open(path, "w").write(doc)
print(f"experiments_doc.sh: {path} updated for {' '.join(names)}")
PY
