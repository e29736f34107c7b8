#!/usr/bin/env bash
# translate_save_load.sh TRANSLATE ARGS...
# A trained model saved with --save and read back with --load (its BPE merges
# from the checkpoint, nothing retrained) scores the test books exactly as it
# did after training; then beam search decodes it too. Verses longer than the
# context are reported as truncated.
set -uo pipefail
program=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$program" "$@" --save "$dir/m.ckpt" >"$dir/trained" 2>&1 || { cat "$dir/trained"; fail "training failed"; }
"$program" "$@" --load "$dir/m.ckpt" >"$dir/loaded" 2>&1 || { cat "$dir/loaded"; fail "--load failed"; }
grep -q "BPE: the checkpoint's" "$dir/loaded" || fail "--load did not take the checkpoint's BPE merges"
# A verse longer than the context is cut and counted, not an error (--quick: context 48).
grep -q "^test: [0-9]* sources and [0-9]* targets longer than --context 48 tokens were truncated" "$dir/trained" ||
  fail "the truncated verses were not reported"
trained=$(grep '^  model ' "$dir/trained") loaded=$(grep '^  model ' "$dir/loaded")
[ -n "$trained" ] || { cat "$dir/trained"; fail "no test score printed"; }
[ "$trained" = "$loaded" ] || fail "scores differ: after training '$trained', loaded '$loaded'"
"$program" "$@" --load "$dir/m.ckpt" --beam 3 >"$dir/beam" 2>&1 || { cat "$dir/beam"; fail "--beam 3 failed"; }
grep -q "beam 3" "$dir/beam" || fail "beam search was not reported"
echo "ok: $trained (trained and loaded); beam 3: $(grep '^  model ' "$dir/beam")"
