#!/usr/bin/env bash
# rank_dies.sh MPIRUN TEST_DATA_PARALLEL
# Rank 1 kills itself (SIGKILL) at its third step, while rank 0 waits for it in
# a collective: mpirun must end the job, non-zero, naming what happened, well
# before the 60 s this script allows; a hang is a failure.
set -uo pipefail
mpirun=$1 program=$2
err=$(mktemp)
trap 'rm -f "$err"' EXIT
start=$(date +%s)
timeout 60 "$mpirun" -np 2 "$program" --die-rank 1 --die-step 3 >/dev/null 2>"$err"
status=$?
took=$(( $(date +%s) - start ))
[ "$status" -ne 124 ] || { echo "FAIL: the job hung (killed by timeout after 60 s)"; exit 1; }
[ "$status" -ne 0 ] || { echo "FAIL: the job exited 0 although a rank died"; exit 1; }
grep -qi "signal 9\|killed" "$err" || { echo "FAIL: mpirun did not say a process was killed:"; cat "$err"; exit 1; }
echo "ok: status $status after ${took} s; mpirun said: $(grep -i -m1 "signal 9\|killed" "$err" | sed 's/^ *//')"
