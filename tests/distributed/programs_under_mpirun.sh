#!/usr/bin/env bash
# programs_under_mpirun.sh MPIRUN COPY_TASK CHAR_LM VIT TEXT_CLASSIFIER
# The programs under `mpirun -np 2`: one header (rank 0 speaks), a checkpoint
# written by rank 0; a run stopped by SIGTERM (which mpirun passes to every
# rank) saves at one step agreed by the ranks and, resumed with two processes,
# ends with the checkpoint of a run never stopped, byte for byte (dropout on:
# each rank's generator is kept); resuming with another count is refused.
set -uo pipefail
mpirun=$1 copy_task=$2 char_lm=$3 vit=$4 text_classifier=$5
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "--- stderr:"; cat "$dir/err" 2>/dev/null; exit 1; }
np2=("$mpirun" -np 2)

"${np2[@]}" "$char_lm" --epochs 1 --steps 4 --layers 1 --d-model 16 --d-ff 16 --context 16 --val-windows 2 \
  --sample-chars 10 --save "$dir/lm.ckpt" >"$dir/out" 2>"$dir/err" || fail "char_lm under mpirun failed"
[ "$(grep -c "^GPT N=1" "$dir/out")" -eq 1 ] || fail "char_lm's header was printed $(grep -c "^GPT N=1" "$dir/out") times"
grep -q "2 processes (mpirun)" "$dir/out" || fail "char_lm's header does not say it runs as 2 processes"
[ -f "$dir/lm.ckpt" ] || fail "no checkpoint from char_lm"
"${np2[@]}" "$vit" --train-limit 129 --epochs 1 --depth 1 --batch 64 >"$dir/out" 2>"$dir/err" ||
  fail "the ViT under mpirun failed (its last batch of 1 image leaves a rank none)"
grep -q "^test accuracy" "$dir/out" || fail "the ViT printed no accuracy"
echo "ok: char_lm and the ViT run under mpirun -np 2, rank 0 speaking"

# stops_and_resumes PROGRAM ARGS...: a job stopped by SIGTERM halfway and resumed ends as one never stopped.
stops_and_resumes() {
  local program=$1
  shift
  local start took_ms pid
  start=$(date +%s%N)
  "${np2[@]}" "$program" "$@" --save "$dir/whole.ckpt" >/dev/null 2>"$dir/err" || fail "the uninterrupted job failed"
  took_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  rm -f "$dir/part.ckpt"
  "${np2[@]}" "$program" "$@" --save "$dir/part.ckpt" >/dev/null 2>"$dir/err" &
  pid=$!
  sleep "$(awk -v ms="$took_ms" 'BEGIN { printf "%.3f", ms * 0.5 / 1000 }')"
  kill -TERM "$pid"
  wait "$pid"
  if grep -q "stopped by SIGTERM" "$dir/err"; then
    [ "$(grep -c "stopped by SIGTERM" "$dir/err")" -eq 1 ] || fail "more than one rank reported the stop"
    "${np2[@]}" "$program" --resume "$dir/part.ckpt" >/dev/null 2>"$dir/err" || fail "resuming with 2 processes failed"
    cmp -s "$dir/whole.ckpt" "$dir/part.ckpt" || fail "stopped and resumed, the job's checkpoint differs from an unstopped job's"
    echo "ok: $(basename "$program"): SIGTERM stopped both ranks at one step, and the resumed job ends with the same checkpoint, byte for byte"
  else
    echo "ok: $(basename "$program"): the job ended before SIGTERM arrived ($(head -c 200 "$dir/err"))"
  fi
}

stops_and_resumes "$copy_task" --epochs 3 --batches-per-epoch 60 --eval-sequences 10 --show 0 --dropout 0.1 --d-model 32 --d-ff 64
"$copy_task" --resume "$dir/whole.ckpt" >/dev/null 2>"$dir/err"
[ $? -eq 1 ] && grep -q "saved by a job of 2 processes; resume it with as many" "$dir/err" ||
  fail "a 2-process checkpoint was resumed by 1 process"
echo "ok: a 2-process run is not resumed by 1 process"

# text_classifier's three trainings (bag of words, pre-training, transformer), each rank computing half of every batch.
"${np2[@]}" "$text_classifier" --quick --tokens chars --pretrain-steps 2 --steps 4 --bow-steps 4 >"$dir/out" 2>"$dir/err" ||
  fail "text_classifier under mpirun failed"
[ "$(grep -c "^fortunes of 7 categories" "$dir/out")" -eq 1 ] && [ "$(grep -c "^  transformer" "$dir/out")" -eq 1 ] ||
  fail "text_classifier's header or result was not printed once"
grep -q "2 processes (mpirun)" "$dir/out" || fail "text_classifier's header does not say it runs as 2 processes"
"${np2[@]}" "$text_classifier" --quick --batch 1 >/dev/null 2>"$dir/err"
grep -q -- "--batch: 1 rows cannot be shared by the 2 processes" "$dir/err" || fail "text_classifier took a batch of 1 for 2 processes"
stops_and_resumes "$text_classifier" --quick --tokens chars --pretrain-steps 20 --steps 60 --bow-steps 60
