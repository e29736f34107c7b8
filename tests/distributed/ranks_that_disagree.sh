#!/usr/bin/env bash
# ranks_that_disagree.sh MPIRUN COPY_TASK
# Ranks given different flags (an MPMD command line, `-np 1 A : -np 1 B`) are
# refused before the first collective, in one line naming the first
# difference, with exit status 1: a model of another width (whose gradient sum
# would corrupt memory), another learning rate (a silently different model),
# --save on one rank only (a job that would hang at the save).
set -uo pipefail
mpirun=$1 program=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run=("$program" --epochs 1 --batches-per-epoch 2 --eval-sequences 2 --show 0 --d-ff 16)
check() {  # check WHAT EXPECTED-TEXT -- FLAGS-OF-RANK-1
  local what=$1 expected=$2
  shift 3
  timeout 120 "$mpirun" -np 1 "${run[@]}" --d-model 16 : -np 1 "${run[@]}" "$@" >/dev/null 2>"$dir/err"
  local status=$?
  [ "$status" -eq 1 ] || { cat "$dir/err"; echo "FAIL: $what: status $status, expected 1"; exit 1; }
  [ "$(grep -c "run different jobs" "$dir/err")" -eq 1 ] || { cat "$dir/err"; echo "FAIL: $what: not one line"; exit 1; }
  grep -qF "$expected" "$dir/err" || { cat "$dir/err"; echo "FAIL: $what: the message does not name it"; exit 1; }
  echo "ok: $what: $(grep "run different jobs" "$dir/err")"
}
check "another --d-model" 'rank 0 has "flag --d-model: 16", rank 1 "flag --d-model: 32"' -- --d-model 32
check "another --lr" 'rank 1 "flag --lr: 0.5"' -- --d-model 16 --lr 0.5
check "--save on rank 1 only" 'rank 1 "writes --save: yes"' -- --d-model 16 --save "$dir/m.ckpt"
