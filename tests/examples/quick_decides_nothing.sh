#!/usr/bin/env bash
# quick_decides_nothing.sh PROGRAM ARGS...
# Runs an experiment's quick form and passes when it exits 0 and its last line is the smoke
# test's, "quick run: no verdict (smoke test): ...", with no "claim held" or "claim NOT held"
# anywhere: a quick run is too short and on too few seeds to decide a claim. Standard output is
# read apart from standard error, where a sanitizer's report at exit may land after the last line.
set -uo pipefail
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$@" >"$out" 2>"$err"
got=$?
fail() {
  echo "FAIL: $*"
  echo "--- standard output (last lines):"; tail -n 8 "$out"
  echo "--- standard error (last lines):"; tail -n 8 "$err"
  exit 1
}
[ "$got" -eq 0 ] || fail "exit status $got"
tail -n 1 "$out" | grep -q '^quick run: no verdict (smoke test): ' || fail "the last line is not the smoke test's"
! grep -q 'claim held\|claim NOT held' "$out" "$err" || fail "a quick run printed a verdict"
echo "ok: $(tail -n 1 "$out" | cut -c1-100)..."
