#!/usr/bin/env bash
# resume_matches_uninterrupted.sh [--state-suffix SUFFIX] PROGRAM ARGS...
# A run killed with kill -9 at random moments, then resumed from its last
# checkpoint until it finishes, ends with a checkpoint identical byte for byte
# to the one a run that never stopped writes: same parameters, Adam's state,
# generators and curves. Then a SIGTERM stops a run at a step boundary with
# status 143 and a checkpoint that names the step, and leaves no temporary file. A finished run
# resumed with --save writes its checkpoint there.
# With --state-suffix, the file --save names is the program's result in a
# format of its own (gpt2's safetensors) and the state it resumes from is that
# name + SUFFIX: the results are compared, and --resume is given the state.
set -uo pipefail
suffix=
[ "$1" = --state-suffix ] && { suffix=$2; shift 2; }
program=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

now() { date +%s.%N; }
start=$(now)
"$program" "$@" --save "$dir/whole.ckpt" >/dev/null 2>"$dir/err" || { cat "$dir/err"; fail "the uninterrupted run failed"; }
took=$(awk -v a="$start" -v b="$(now)" 'BEGIN { print b - a }')
# `fraction` of the uninterrupted run's time, in seconds
part() { awk -v t="$took" -v f="$1" 'BEGIN { printf "%.3f", t * f }'; }

kills=0 finished=0
for attempt in 1 2 3 4 5 6; do
  if [ -f "$dir/part.ckpt$suffix" ]; then
    "$program" --resume "$dir/part.ckpt$suffix" >/dev/null 2>"$dir/err" &
  else
    "$program" "$@" --save "$dir/part.ckpt" --save-every 1 >/dev/null 2>"$dir/err" &
  fi
  pid=$!
  # A random moment from 10% to 100% of the run: at a step, in a save, or during an evaluation.
  sleep "$(part "0.$((RANDOM % 900 + 100))")"
  if kill -9 "$pid" 2>/dev/null; then
    wait "$pid" 2>/dev/null
    kills=$((kills + 1))
  else
    wait "$pid" || { cat "$dir/err"; fail "a resumed run failed"; }
    [ -f "$dir/part.ckpt" ] && { finished=1; break; }
  fi
done
# Whatever the kills left, one more resume (or fresh run) finishes it.
if [ $finished -eq 0 ] && [ -f "$dir/part.ckpt$suffix" ]; then
  "$program" --resume "$dir/part.ckpt$suffix" >/dev/null 2>"$dir/err" || { cat "$dir/err"; fail "the last resume failed"; }
elif [ $finished -eq 0 ]; then
  "$program" "$@" --save "$dir/part.ckpt" --save-every 1 >/dev/null 2>"$dir/err" || fail "the restarted run failed"
fi
cmp -s "$dir/whole.ckpt" "$dir/part.ckpt" || fail "after $kills kills and resumes the checkpoint differs from the uninterrupted run's"
echo "ok: killed $kills times (kill -9), resumed, and the final checkpoint is identical byte for byte"

# A finished run resumed with --save writes there the checkpoint it ended with: no step is
# left to run, and the save at the end is still due.
if [ -z "$suffix" ]; then
  "$program" --resume "$dir/whole.ckpt" --save "$dir/again.ckpt" >/dev/null 2>"$dir/err" || { cat "$dir/err"; fail "resuming the finished run failed"; }
  cmp -s "$dir/whole.ckpt" "$dir/again.ckpt" || fail "the finished run resumed with --save did not write its checkpoint there"
  echo "ok: the finished run resumed with --save wrote the same checkpoint there"
fi

# SIGTERM: the run saves at the next step boundary, says so in one line, exits 143. It is sent
# once training has begun (its progress bar printed): a signal while the data loads (translate's
# Bibles, its merges) ends the run at once, with no step to save.
rm -f "$dir/part.ckpt"
"$program" "$@" --save "$dir/term.ckpt" >"$dir/term.out" 2>"$dir/term" &
pid=$!
for _ in $(seq 2400); do
  grep -qE '^\[[#.]+\] .* loss ' "$dir/term.out" && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
kill -TERM "$pid"
wait "$pid"
status=$?
if [ "$status" -eq 0 ]; then
  echo "ok: the run finished before SIGTERM arrived"
else
  [ "$status" -eq 143 ] || { cat "$dir/term"; fail "status $status after SIGTERM, expected 143"; }
  [ "$(wc -l <"$dir/term")" -eq 1 ] || { cat "$dir/term"; fail "expected one line on stderr"; }
  grep -q "stopped by SIGTERM at step .* written (--resume" "$dir/term" || { cat "$dir/term"; fail "the message does not say what was saved"; }
  "$program" --resume "$dir/term.ckpt$suffix" >/dev/null 2>"$dir/err" || { cat "$dir/err"; fail "resuming after SIGTERM failed"; }
  cmp -s "$dir/whole.ckpt" "$dir/term.ckpt" || fail "resumed after SIGTERM, the checkpoint differs"
  echo "ok: SIGTERM gave status 143 and '$(cat "$dir/term")'; resumed to the same checkpoint"
fi
ls "$dir" | grep -q "\.tmp\." && fail "a temporary file was left: $(ls "$dir")"
exit 0
