#!/usr/bin/env bash
# gpt2_fine_tune_state.sh GPT2 WEIGHTS TEXT
# gpt2's fine-tuning keeps the state it resumes from beside its --save file,
# as FILE.resume: a resume with another value of a recorded flag, on another
# text, or from a state not named FILE.resume without --save, is refused in
# one line; one with other --threads runs on to the --save file and removes
# the state of the finished run, with what killed runs left of it.
set -uo pipefail
gpt2=$1 weights=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "--- stderr:"; cat "$dir/err" 2>/dev/null; exit 1; }
cp "$3" "$dir/text.txt"
state=$dir/tuned.safetensors.resume

# A run killed once its first state is written (every step saves it; 40 steps take a while).
"$gpt2" --weights "$weights" --fine-tune "$dir/text.txt" --steps 40 --batch 2 --context 16 --tokens 1 \
  --save "$dir/tuned.safetensors" --save-every 1 >/dev/null 2>"$dir/err" &
pid=$!
while [ ! -f "$state" ] && kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
[ -f "$state" ] || fail "no resume state was written"

# expect STATUS TEXT ARGS...: one line on stderr holding TEXT, exit status STATUS.
expect() {
  local status=$1 text=$2
  shift 2
  "$gpt2" "$@" >"$dir/out" 2>"$dir/err"
  local got=$?
  [ "$got" -eq "$status" ] || fail "$* gave status $got, expected $status"
  [ "$(wc -l <"$dir/err")" -eq 1 ] && grep -qF -- "$text" "$dir/err" || fail "$*: expected one line holding: $text"
}
expect 2 "--lr: 0.001 here, but $state was saved with --lr 0.0001" --resume "$state" --lr 0.001
[ -s "$dir/out" ] && fail "work was done before refusing --lr"
expect 2 "--steps: 39 here, but $state was saved with --steps 40" --resume "$state" --steps 39
# --resume FILE, as --help spells it, names the same state
expect 2 "--lr: 0.001 here, but $state was saved with --lr 0.0001" --resume "$dir/tuned.safetensors" --lr 0.001
cp "$state" "$dir/copy.ckpt"
expect 2 "--resume: $dir/copy.ckpt is not named FILE.resume: give --save FILE" --resume "$dir/copy.ckpt"
echo "ok: a resume with another --lr or --steps, or from a state not named FILE.resume, is refused"

cp "$dir/text.txt" "$dir/kept.txt"
echo "one line more" >>"$dir/text.txt"
expect 1 "resume on the same text and tokenizer" --resume "$state"
cp "$dir/kept.txt" "$dir/text.txt"
echo "ok: a resume on a changed text is refused"

echo "half a state" >"$state.tmp.$pid"  # what a run killed while saving leaves (its pid is gone)
"$gpt2" --resume "$state" --threads 1 --tokens 1 >"$dir/out" 2>"$dir/err" || fail "the resume with --threads 1 failed"
[ -f "$dir/tuned.safetensors" ] || fail "the resumed run wrote no $dir/tuned.safetensors"
[ -f "$state" ] && fail "the finished run left its resume state"
[ -f "$state.tmp.$pid" ] && fail "the finished run left a killed run's partial state"
grep -q "removed: the fine-tuning it would resume is done" "$dir/out" || fail "the removal of the state was not said"
echo "ok: resumed with --threads 1, the run wrote its safetensors and removed its resume state (partial ones too)"
"$gpt2" --weights "$dir/tuned.safetensors" --tokens 1 >"$dir/out" 2>"$dir/err" || fail "the fine-tuned weights do not load"
grep -q "configuration from $dir/config.json" "$dir/out" || fail "no config.json beside the fine-tuned weights"
echo "ok: the fine-tuned weights load with the config.json written beside them"

# The config.json written beside --save is checked with the flags, before any step: a folder there
# is refused in one line, and nothing is trained or written.
mkdir -p "$dir/x/config.json"
expect 2 "--save: $dir/x/config.json is a folder, not a file" --weights "$weights" --fine-tune "$dir/text.txt" \
  --steps 2 --batch 1 --context 8 --tokens 1 --save "$dir/x/out.safetensors"
[ -e "$dir/x/out.safetensors" ] && fail "weights were written beside a config.json that cannot be"
echo "ok: a config.json beside --save that cannot be written is refused before any work"
