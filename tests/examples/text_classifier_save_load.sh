#!/usr/bin/env bash
# text_classifier_save_load.sh TEXT_CLASSIFIER ARGS...
# A run saved with --save and read back with --load (every recorded flag
# adopted, the tokenizer learnt again from the same fortunes, nothing trained)
# prints the result table of the end of training, digit for digit: the chosen
# steps, the validation and test accuracies, the per-category scores and the
# confusion matrix. --load refuses in one line a checkpoint saved before the
# run's end (status 2, before any work) and fortunes other than those the run
# read (status 1).
set -uo pipefail
program=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$program" "$@" --save "$dir/m.ckpt" >"$dir/trained" 2>&1 || { cat "$dir/trained"; fail "training failed"; }
"$program" --load "$dir/m.ckpt" >"$dir/loaded" 2>&1 || { cat "$dir/loaded"; fail "--load failed"; }
table() { sed -n '/^category /,$p' "$1"; }
[ -n "$(table "$dir/trained")" ] || { cat "$dir/trained"; fail "no result table after training"; }
[ "$(table "$dir/trained")" = "$(table "$dir/loaded")" ] ||
  { diff <(table "$dir/trained") <(table "$dir/loaded"); fail "--load prints another table than training did"; }
echo "ok: --load prints the table of the end of training: $(grep '^  transformer' "$dir/loaded")"

# --load trains nothing, so it has no checkpoint for --save to write.
"$program" --load "$dir/m.ckpt" --save "$dir/again.ckpt" >/dev/null 2>"$dir/err"
status=$?
[ "$status" -eq 2 ] && grep -q -- "--save: writes a training's checkpoint; --load trains nothing" "$dir/err" &&
  [ ! -e "$dir/again.ckpt" ] || { cat "$dir/err"; fail "--load with --save: status $status"; }
echo "ok: $(cat "$dir/err")"

# Stopped by SIGTERM after its first save, the run's checkpoint is not yet the end of it.
"$program" "$@" --steps 1000 --save "$dir/early.ckpt" --save-every 1 >/dev/null 2>&1 &
pid=$!
while [ ! -f "$dir/early.ckpt" ] && kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
kill -TERM "$pid"
wait "$pid"
[ -f "$dir/early.ckpt" ] || fail "no checkpoint from the stopped run"
"$program" --load "$dir/early.ckpt" >/dev/null 2>"$dir/err"
status=$?
[ "$status" -eq 2 ] && [ "$(wc -l <"$dir/err")" -eq 1 ] && grep -q "before the run's end: --resume .* finishes it" "$dir/err" ||
  { cat "$dir/err"; fail "--load of a checkpoint saved before the end: status $status"; }
echo "ok: $(cat "$dir/err")"

# The same fortunes files, one of them with a fortune more.
cp -r /usr/share/games/fortunes "$dir/fortunes"
printf 'One fortune more.\n%%\n' >>"$dir/fortunes/law"
"$program" --load "$dir/m.ckpt" --fortunes "$dir/fortunes" >/dev/null 2>"$dir/err"
status=$?
[ "$status" -eq 1 ] && [ "$(wc -l <"$dir/err")" -eq 1 ] && grep -q "give --fortunes the folder it was trained on" "$dir/err" ||
  { cat "$dir/err"; fail "--load with other fortunes: status $status"; }
echo "ok: $(cat "$dir/err")"
