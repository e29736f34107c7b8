#!/usr/bin/env bash
# resume_validates_as_before.sh PROGRAM ARGS...
# A run resumed with nothing but --resume FILE takes every flag its results
# depend on from FILE. Killed (kill -9) just after its first save and resumed,
# it prints the epoch lines ("epoch 2 validation ...") of the epochs it finishes
# exactly as a run that never stopped printed them, and ends with that run's
# checkpoint, byte for byte. A flag the checkpoint does not record comes back as
# its default, and the epoch lines then differ even where the checkpoints agree.
set -uo pipefail
program=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$program" "$@" --save "$dir/whole.ckpt" >"$dir/whole" 2>"$dir/err" || { cat "$dir/err"; fail "the uninterrupted run failed"; }
"$program" "$@" --save "$dir/part.ckpt" --save-every 1 >/dev/null 2>"$dir/err" &
pid=$!
while [ ! -f "$dir/part.ckpt" ] && kill -0 "$pid" 2>/dev/null; do sleep 0.02; done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
[ -f "$dir/part.ckpt" ] || { cat "$dir/err"; fail "the run wrote no checkpoint"; }
"$program" --resume "$dir/part.ckpt" >"$dir/resumed" 2>"$dir/err" || { cat "$dir/err"; fail "the resumed run failed"; }

at=$(sed -n 's/^resumed .* at step \([0-9]*\) of \([0-9]*\)$/\1 \2/p' "$dir/resumed")
[ -n "$at" ] || fail "the resumed run did not say where it resumed"
read -r step last <<<"$at"
[ "$step" -lt "$last" ] || fail "the run was killed after its last step ($step of $last): nothing was resumed"
grep -E '^epoch [0-9]+ ' "$dir/whole" >"$dir/whole.epochs"
grep -E '^epoch [0-9]+ ' "$dir/resumed" >"$dir/resumed.epochs"
n=$(wc -l <"$dir/resumed.epochs")
[ "$n" -gt 0 ] || fail "the resumed run printed no epoch line"
if ! tail -n "$n" "$dir/whole.epochs" | cmp -s - "$dir/resumed.epochs"; then
  echo "uninterrupted:"; tail -n "$n" "$dir/whole.epochs"; echo "resumed:"; cat "$dir/resumed.epochs"
  fail "resumed at step $step, the epoch lines differ"
fi
cmp -s "$dir/whole.ckpt" "$dir/part.ckpt" || fail "resumed at step $step, the checkpoint differs from the uninterrupted run's"
echo "ok: resumed at step $step of $last with --resume alone: $n epoch lines and the checkpoint as the uninterrupted run's"
