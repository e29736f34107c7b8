#!/usr/bin/env bash
# one_writer_under_mpirun.sh MPIRUN PROGRAM ARGS...
# A training program under `mpirun -np 2` prints what it prints alone (rank 0
# speaks for the job, so the lines are not doubled), and exactly one process
# writes its outputs: every rename onto an output (how every file is written,
# through a temporary file) is made by rank 0, none by rank 1, as strace sees
# them. A --batch of 1 row cannot be shared by 2 processes: refused, status 2.
set -uo pipefail
mpirun=$1 program=$2
shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "--- stderr:"; cat "$dir/err" 2>/dev/null; exit 1; }
name=$(basename "$program")

"$program" "$@" --save "$dir/one.ckpt" >"$dir/one.out" 2>"$dir/err" || fail "$name alone failed"
# Each rank under strace, its trace in trace.RANK: the renames it made.
"$mpirun" -np 2 sh -c 'exec strace -f -qq -e trace=rename,renameat,renameat2 -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' \
  "$dir/trace" "$program" "$@" --save "$dir/two.ckpt" >"$dir/two.out" 2>"$dir/err" || fail "$name under mpirun -np 2 failed"
[ -f "$dir/trace.0" ] && [ -f "$dir/trace.1" ] || fail "no trace of the two ranks (is strace installed?)"
grep -q "rename.*\"$dir/two.ckpt\"" "$dir/trace.0" || fail "rank 0 did not write --save"
if grep -q "rename" "$dir/trace.1"; then fail "rank 1 wrote: $(grep rename "$dir/trace.1" | head -3)"; fi
one=$(wc -l <"$dir/one.out") two=$(wc -l <"$dir/two.out")
# Under mpirun a run says one thing more: what summing the gradients cost.
[ "$two" -le $((one + 2)) ] || fail "$name printed $two lines as 2 processes, $one alone: a rank other than 0 speaks"
echo "ok: $name under mpirun -np 2 prints $two lines ($one alone), and only rank 0 writes"

args=()  # the run's flags without its own --batch
while [ $# -gt 0 ]; do
  if [ "$1" = --batch ]; then shift 2; else args+=("$1"); shift; fi
done
"$mpirun" -np 2 "$program" "${args[@]}" --batch 1 >/dev/null 2>"$dir/err"
status=$?
[ "$status" -eq 2 ] && grep -q -- "--batch: 1 rows cannot be shared by the 2 processes" "$dir/err" ||
  fail "--batch 1 under 2 processes: status $status"
echo "ok: --batch 1 is refused under 2 processes"
