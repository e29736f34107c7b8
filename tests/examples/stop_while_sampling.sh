#!/usr/bin/env bash
# stop_while_sampling.sh MARK PROGRAM ARGS...
# Starts a program that samples a long text, waits until its stdout holds MARK
# and some text after it, then sends one SIGINT: the sampling must end there,
# what was printed must stay, and the program exit 130 (128 + SIGINT) with one
# line on stderr.
set -uo pipefail
mark=$1
shift
dir=$(mktemp -d)
trap 'kill -9 "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
"$@" >"$dir/out" 2>"$dir/err" &
pid=$!
fail() { echo "FAIL: $*"; echo "--- stderr:"; cat "$dir/err"; echo "--- stdout (last lines):"; tail -n 5 "$dir/out"; exit 1; }
for _ in $(seq 600); do  # a minute at most
  after=$(grep -aF -A1000 -- "$mark" "$dir/out" | tail -n +2 | wc -c)
  [ "$after" -gt 20 ] && break
  kill -0 "$pid" 2>/dev/null || fail "the program ended before it printed 20 bytes of its sample"
  sleep 0.1
done
printed=$(wc -c <"$dir/out")
kill -INT "$pid"
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && fail "still sampling 10 s after SIGINT"
wait "$pid"
status=$?
[ "$status" -eq 130 ] || fail "exit status $status, expected 130"
[ "$(wc -l <"$dir/err")" -eq 1 ] || fail "stderr has $(wc -l <"$dir/err") lines, expected one"
grep -q "stopped by SIGINT" "$dir/err" || fail "stderr does not say it was stopped by SIGINT"
[ "$(wc -c <"$dir/out")" -ge "$printed" ] || fail "stdout lost what it held when the signal came"
echo "ok: stopped after $(wc -c <"$dir/out") bytes of stdout ($printed when signalled): $(tail -n 1 "$dir/out")"
