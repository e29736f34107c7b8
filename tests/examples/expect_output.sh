#!/usr/bin/env bash
# expect_output.sh STATUS TEXT... -- PROGRAM ARGS...
# Runs the program and passes when it exits with STATUS and its stdout holds
# every TEXT (each a fixed string, on a line of its own or within one).
set -uo pipefail
status=$1
shift
texts=()
while [ "$1" != -- ]; do texts+=("$1"); shift; done
shift
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$@" >"$out" 2>"$err"
got=$?
fail() { echo "FAIL: $*"; echo "--- stderr:"; cat "$err"; echo "--- stdout (last lines):"; tail -n 8 "$out"; exit 1; }
[ "$got" -eq "$status" ] || fail "exit status $got, expected $status"
for t in "${texts[@]}"; do grep -qF -- "$t" "$out" || fail "stdout does not contain: $t"; done
echo "ok: $(grep -F -- "${texts[0]}" "$out" | head -1)"
