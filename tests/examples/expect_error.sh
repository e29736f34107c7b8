#!/usr/bin/env bash
# expect_error.sh STATUS TEXT [--quiet] -- PROGRAM ARGS...
# Runs the program and passes when it exits with STATUS, prints exactly one
# line on stderr containing TEXT and, with --quiet (bad flags), nothing on
# stdout: the error came before any work was done.
set -uo pipefail
status=$1 text=$2
shift 2
quiet=0
[ "$1" = --quiet ] && { quiet=1; shift; }
[ "$1" = -- ] && shift
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$@" >"$out" 2>"$err"
got=$?
fail() { echo "FAIL: $*"; echo "--- stderr:"; cat "$err"; echo "--- stdout (last lines):"; tail -n 5 "$out"; exit 1; }
[ "$got" -eq "$status" ] || fail "exit status $got, expected $status"
[ "$(wc -l <"$err")" -eq 1 ] || fail "stderr has $(wc -l <"$err") lines, expected one"
grep -qF -- "$text" "$err" || fail "stderr does not contain: $text"
[ $quiet -eq 0 ] || [ ! -s "$out" ] || fail "the program did work before failing (stdout not empty)"
echo "ok: $(cat "$err")"
