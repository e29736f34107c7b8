#!/usr/bin/env bash
# stop_while_making_weights.sh GPT2 TEXT
# A stop signal while gpt2 makes its weights (seconds, with nothing yet to
# save) or checks its inputs ends the run at once: status 143, one line saying what it was doing,
# no lock file left and no file written; it never goes on to announce the model.
set -uo pipefail
gpt2=$1
text=$2
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "--- stdout:"; cat "$dir/out"; echo "--- stderr:"; cat "$dir/err"; exit 1; }
"$gpt2" --random --fine-tune "$text" --context 64 --batch 1 --steps 1 --save "$dir/x.safetensors" \
  >"$dir/out" 2>"$dir/err" &
pid=$!
for _ in $(seq 200); do  # the lock is taken at flag time, just before the weights are made
  [ -f "$dir/x.safetensors.lock" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
[ -f "$dir/x.safetensors.lock" ] || fail "no lock file within 10 s"
sleep 1
kill -TERM "$pid"
wait "$pid"
status=$?
pid=
[ "$status" -eq 143 ] || fail "status $status after SIGTERM, expected 143"
# Making the 124M weights takes seconds; on a slow machine the signal may still find the checks.
grep -qxE "gpt2: stopped by SIGTERM while (making the weights|checking its flags and inputs)" "$dir/err" ||
  fail "no line saying what the stop ended"
grep -qF "with random weights" "$dir/out" && fail "the run went on to announce the model"
[ -z "$(ls "$dir" | grep -v -x -e out -e err)" ] || fail "files were left: $(ls "$dir")"
echo "ok: status 143 at once, the line, and no file left"
