#!/usr/bin/env bash
# one_run_per_save.sh EXPECT_ERROR PROGRAM ARGS...    (a program with --epochs and --save)
# Two runs given one --save: while the first trains, the second is refused in one line naming
# the first's pid (exit 2, before any work); once the first is killed with kill -9 (the kernel
# lets its lock go), a new run takes the file; a run that ends removes its lock file.
set -uo pipefail
expect_error=$1
shift
dir=$(mktemp -d)
trap 'kill -9 "$first" 2>/dev/null; rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$@" --epochs 1000 --save "$dir/m.ckpt" >"$dir/first.out" 2>&1 &
first=$!
for _ in $(seq 300); do [ -s "$dir/m.ckpt.lock" ] && break; sleep 0.1; done
[ -s "$dir/m.ckpt.lock" ] || fail "the first run took no lock on $dir/m.ckpt.lock: $(cat "$dir/first.out")"
"$expect_error" 2 "--save: $dir/m.ckpt is being written by another run, pid $first" --quiet -- "$@" --save "$dir/m.ckpt" \
  || fail "the second run was not refused"
kill -9 "$first"
wait "$first" 2>/dev/null
"$@" --save "$dir/m.ckpt" --epochs 1 >"$dir/second.out" 2>&1 || fail "after kill -9 of the first, a run could not save: $(tail -2 "$dir/second.out")"
[ -e "$dir/m.ckpt.lock" ] && fail "a run that ended left its lock file"
echo "ok: one run per --save; kill -9 releases it"
