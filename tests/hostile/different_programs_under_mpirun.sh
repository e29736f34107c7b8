#!/usr/bin/env bash
# different_programs_under_mpirun.sh MPIRUN PROGRAM_A PROGRAM_B
# An mpirun job whose ranks run two different programs was refused
# as a difference of flags; the line now says they are different programs.
set -uo pipefail
mpirun=$1 a=$2 b=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
timeout 120 "$mpirun" -np 1 "$a" --epochs 1 --batches-per-epoch 2 --eval-sequences 2 --show 0 : \
  -np 1 "$b" --epochs 1 --steps 2 --layers 1 --d-model 16 --d-ff 16 --context 16 --val-windows 1 >/dev/null 2>"$dir/err"
status=$?
fail() { echo "FAIL: $*"; cat "$dir/err"; exit 1; }
[ "$status" -eq 1 ] || fail "status $status, expected 1"
expected="the processes of this job run different programs: rank 0 runs $(basename "$a"), rank 1 $(basename "$b")"
[ "$(grep -c "run different" "$dir/err")" -eq 1 ] || fail "not one line"
grep -qF "$expected" "$dir/err" || fail "the line does not say: $expected"
echo "ok: $(grep "run different" "$dir/err")"
