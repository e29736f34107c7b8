#!/usr/bin/env bash
# second_signal_during_save.sh PROGRAM ARGS...
# The first Ctrl-C says at once that the run stops and
# where it saves; a second one soon after ends the run with status 130, leaves
# no lock file and no temporary file, and the checkpoint there (the stop's,
# or the one saved before it) is whole: --resume runs on from it.
set -uo pipefail
program=$1
shift
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "--- stdout (last lines):"; tail -n 5 "$dir/out"; echo "--- stderr:"; cat "$dir/err"; exit 1; }
"$program" "$@" --save "$dir/m.ckpt" --save-every 1 >"$dir/out" 2>"$dir/err" &
pid=$!
for _ in $(seq 600); do
  [ -f "$dir/m.ckpt" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
[ -f "$dir/m.ckpt" ] || fail "no checkpoint saved within 30 s"
kill -INT "$pid"
for _ in $(seq 200); do
  grep -qF "stopping: saving $dir/m.ckpt" "$dir/out" && break
  sleep 0.05
done
grep -qF "stopping: saving $dir/m.ckpt" "$dir/out" || fail "nothing said within 10 s of the first Ctrl-C"
kill -INT "$pid" 2>/dev/null
wait "$pid"
status=$?
pid=
[ "$status" -eq 130 ] || fail "status $status after two Ctrl-C, expected 130"
[ ! -e "$dir/m.ckpt.lock" ] || fail "the lock file m.ckpt.lock was left"
ls "$dir" | grep -q '\.tmp\.' && fail "a temporary file was left: $(ls "$dir")"
"$program" --resume "$dir/m.ckpt" >"$dir/out" 2>"$dir/err" || fail "--resume of the checkpoint left failed"
echo "ok: status 130, no lock file, and the checkpoint resumes ($(grep -c . "$dir/out") lines)"
