#!/usr/bin/env bash
# translate_save_load.sh TRANSLATE ARGS...
# A trained model saved with --save and read back with --load (its BPE merges
# from the checkpoint, nothing retrained) scores the test books exactly as it
# did after training; then beam search decodes it too.
set -uo pipefail
program=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$program" "$@" --save "$dir/m.ckpt" >"$dir/trained" 2>&1 || { cat "$dir/trained"; fail "training failed"; }
"$program" "$@" --load "$dir/m.ckpt" >"$dir/loaded" 2>&1 || { cat "$dir/loaded"; fail "--load failed"; }
grep -q "BPE: the checkpoint's" "$dir/loaded" || fail "--load did not take the checkpoint's BPE merges"
trained=$(grep '^  model ' "$dir/trained") loaded=$(grep '^  model ' "$dir/loaded")
[ -n "$trained" ] || { cat "$dir/trained"; fail "no test score printed"; }
[ "$trained" = "$loaded" ] || fail "scores differ: after training '$trained', loaded '$loaded'"
"$program" "$@" --load "$dir/m.ckpt" --beam 3 >"$dir/beam" 2>&1 || { cat "$dir/beam"; fail "--beam 3 failed"; }
grep -q "beam 3" "$dir/beam" || fail "beam search was not reported"
echo "ok: $trained (trained and loaded); beam 3: $(grep '^  model ' "$dir/beam")"
