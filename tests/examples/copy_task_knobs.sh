#!/usr/bin/env bash
# copy_task_knobs.sh COPY_TASK KNOB
# The notes' knobs reach the model (docs/start-here.md's exercises rest on them). KNOB is one of
#   task       --task reverse / sort: the printed targets are the inputs reversed / sorted, and the
#              accuracy is counted against them
#   positions  every --positions kind trains, says its kind, and gives a loss curve of its own
#   unscaled   --unscaled says so and changes the loss curve (the scores lose their 1/sqrt(d_k))
#   attention  --attention dot is the default's run, bit for bit; additive says so and changes the
#              loss curve; --unscaled with additive is refused (additive scores have no scale)
#   record     a checkpoint records the knobs: --load adopts them and refuses another value
set -uo pipefail
copy_task=$1 knob=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "--- stderr:"; cat "$dir/err" 2>/dev/null; echo "--- stdout:"; head -n 12 "$dir/out" 2>/dev/null; exit 1; }
small=(--epochs 1 --batches-per-epoch 3 --eval-sequences 10 --batch 8 --layers 1 --d-model 16 --d-ff 32 --heads 2)

# Runs copy_task small with the given flags, its loss curve into $dir/$1.csv, its output into $dir/out.
run() {
  local name=$1
  shift
  "$copy_task" "${small[@]}" --csv "$dir/$name.csv" "$@" >"$dir/out" 2>"$dir/err" || fail "copy_task $* failed"
}

# The symbols after the start symbol of the printed lines that begin with $1 ("input", "target").
symbols() { awk -v w="$1" '$1 == w { $1 = ""; $2 = ""; print }' "$dir/out" | sed 's/^ *//'; }

case $knob in
task)
  for task in reverse sort; do
    run "$task" --task "$task" --show 3
    grep -q "^$task task:" "$dir/out" || fail "the first line does not name the $task task"
    mapfile -t inputs < <(symbols input)
    mapfile -t targets < <(symbols target)
    [ "${#inputs[@]}" -eq 3 ] && [ "${#targets[@]}" -eq 3 ] || fail "expected 3 inputs and 3 targets printed"
    for i in 0 1 2; do
      if [ "$task" = reverse ]; then want=$(tr ' ' '\n' <<<"${inputs[$i]}" | grep . | tac | paste -sd' ')
      else want=$(tr ' ' '\n' <<<"${inputs[$i]}" | grep . | sort -n | paste -sd' '); fi
      got=$(tr ' ' '\n' <<<"${targets[$i]}" | grep . | paste -sd' ')
      [ "$got" = "$want" ] || fail "$task: target '$got' of input '${inputs[$i]}', expected '$want'"
    done
    done_word=$([ "$task" = reverse ] && echo reversed || echo sorted)
    grep -q "of held-out sequences $done_word exactly" "$dir/out" || fail "the accuracy line does not count $task"
    echo "ok: --task $task prints targets that are the inputs $done_word, and scores against them"
  done
  ;;
positions)
  run sinusoidal
  for kind in sinusoidal learned binary concatenated none; do
    run "$kind" --positions "$kind"
    grep -q "$kind positions" "$dir/out" || fail "the first line does not say '$kind positions'"
    if [ "$kind" = sinusoidal ]; then cmp -s "$dir/sinusoidal.csv" "$dir/$kind.csv" || fail "--positions sinusoidal is not the default"
    else cmp -s "$dir/sinusoidal.csv" "$dir/$kind.csv" && fail "--positions $kind trains exactly as the sinusoid does"; fi
  done
  echo "ok: every --positions kind trains, names itself, and (but the default) changes the loss curve"
  ;;
unscaled)
  run scaled
  run unscaled --unscaled
  grep -q "(d_k=8, unscaled)" "$dir/out" || fail "the first line does not say the attention is unscaled"
  cmp -s "$dir/scaled.csv" "$dir/unscaled.csv" && fail "--unscaled gives the scaled run's loss curve"
  echo "ok: --unscaled reaches the attention: another loss curve"
  ;;
attention)
  run default
  run dot --attention dot
  cmp -s "$dir/default.csv" "$dir/dot.csv" || fail "--attention dot is not the default's run"
  run additive --attention additive
  grep -q "(d_k=8, additive)" "$dir/out" || fail "the first line does not say the attention is additive"
  cmp -s "$dir/default.csv" "$dir/additive.csv" && fail "--attention additive gives the dot product's loss curve"
  "$copy_task" "${small[@]}" --attention additive --unscaled >"$dir/out" 2>"$dir/err"
  [ $? -eq 2 ] && grep -q -- "--unscaled" "$dir/err" || fail "--unscaled with --attention additive was not refused"
  echo "ok: --attention dot is the default, bit for bit; additive reaches the model; --unscaled additive is refused"
  ;;
record)
  "$copy_task" "${small[@]}" --task reverse --positions binary --unscaled --save "$dir/m.ckpt" >/dev/null 2>"$dir/err" ||
    fail "training with the knobs failed"
  "$copy_task" --load "$dir/m.ckpt" --eval-sequences 10 >"$dir/out" 2>"$dir/err" || fail "--load failed"
  grep -q -- "--task reverse" "$dir/out" && grep -q -- "--positions binary" "$dir/out" && grep -q -- "--unscaled" "$dir/out" ||
    fail "--load did not adopt --task, --positions and --unscaled"
  grep -q "^reverse task:.*binary positions" "$dir/out" || fail "the loaded model is not the reversing, binary one"
  "$copy_task" --load "$dir/m.ckpt" --task copy >"$dir/out" 2>"$dir/err"
  [ $? -eq 2 ] && grep -q -- "--task: copy here, but $dir/m.ckpt was saved with --task reverse" "$dir/err" ||
    fail "--load with another --task was not refused naming both"
  echo "ok: a checkpoint records the knobs; --load adopts them and refuses another --task"
  ;;
*)
  echo "copy_task_knobs.sh: unknown knob '$knob'" >&2
  exit 2
  ;;
esac
