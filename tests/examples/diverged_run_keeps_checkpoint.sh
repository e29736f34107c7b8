#!/usr/bin/env bash
# diverged_run_keeps_checkpoint.sh COPY_TASK
# A run whose loss turns NaN stops with one line and a non-zero status, and the
# checkpoint a good run wrote to the same path is left byte for byte intact.
set -euo pipefail
copy_task=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$copy_task" --epochs 1 --batches-per-epoch 3 --eval-sequences 10 --save "$dir/model.ckpt" >/dev/null
before=$(sha256sum <"$dir/model.ckpt")
set +e
"$copy_task" --lr 1e6 --epochs 2 --eval-sequences 10 --save "$dir/model.ckpt" >/dev/null 2>"$dir/err"
status=$?
set -e
cat "$dir/err"
[ "$status" -ne 0 ] || { echo "FAIL: the diverged run exited 0"; exit 1; }
[ "$(wc -l <"$dir/err")" -eq 1 ] || { echo "FAIL: expected one line on stderr"; exit 1; }
grep -q "holds NaN\|holds an infinity\|the loss is" "$dir/err" || { echo "FAIL: the message does not say which value"; exit 1; }
[ "$(sha256sum <"$dir/model.ckpt")" = "$before" ] || { echo "FAIL: the earlier checkpoint was overwritten"; exit 1; }
echo "ok: the earlier checkpoint is intact"
