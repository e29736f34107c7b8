#!/usr/bin/env bash
# nan_evaluation.sh COPY_TASK
# An update after the last step's finite loss leaves the
# weights or the held-out loss NaN. The run once printed "eval loss nan",
# saved and exited 0; it now stops with status 1 and one line naming the
# evaluation, and saves nothing.
set -uo pipefail
copy_task=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "--- stderr:"; cat "$dir/err"; echo "--- stdout (last lines):"; tail -n 5 "$dir/out"; exit 1; }
"$copy_task" --lr 1e30 --schedule cosine --warmup 1 --epochs 1 --batches-per-epoch 1 --save "$dir/m.ckpt" \
  >"$dir/out" 2>"$dir/err"
status=$?
[ "$status" -eq 1 ] || fail "exit status $status, expected 1"
[ "$(wc -l <"$dir/err")" -eq 1 ] || fail "expected one line on stderr"
grep -qE "after step 1: (the evaluation's eval is|'.*' .* holds)" "$dir/err" || fail "the line does not name what is not finite"
grep -qF "nothing saved" "$dir/err" || fail "the line does not say that nothing was saved"
[ ! -e "$dir/m.ckpt" ] || fail "a checkpoint of the diverged model was saved"
echo "ok: $(cat "$dir/err")"
