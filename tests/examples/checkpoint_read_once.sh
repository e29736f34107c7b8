#!/usr/bin/env bash
# A program given a checkpoint reads it once: the file is opened for reading
# one time in a resumed run (its preset, its flags, the training state) and in
# a loaded one (its flags, the model), as strace sees the open calls.
#   checkpoint_read_once.sh PROGRAM [COMMON...] -- TRAINING...
# COMMON: flags every run is given (the text); TRAINING: the first run's, a short one.
set -euo pipefail
program=$1
shift
common=()
while [ "$1" != "--" ]; do common+=("$1"); shift; done
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$program" "${common[@]}" "$@" --save "$dir/run.ckpt" --save-every 1 >/dev/null 2>"$dir/err" || fail "the first run failed: $(cat "$dir/err")"

# How many times `run.ckpt` itself was opened read-only during the command.
# LeakSanitizer cannot run under ptrace, so a sanitized build checks leaks in
# the other tests, not under strace.
opens() {
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=openat -o "$dir/trace" "$@" >/dev/null 2>"$dir/err" || fail "$* failed: $(cat "$dir/err")"
  grep -c "\"$dir/run.ckpt\", O_RDONLY" "$dir/trace" || true
}

n=$(opens "$program" "${common[@]}" --resume "$dir/run.ckpt" --save "$dir/resumed.ckpt")
[ "$n" = 1 ] || fail "--resume opened the checkpoint $n times for reading, not once"
echo "ok: --resume reads its checkpoint once"
n=$(opens "$program" "${common[@]}" --load "$dir/run.ckpt")
[ "$n" = 1 ] || fail "--load opened the checkpoint $n times for reading, not once"
echo "ok: --load reads its checkpoint once"
