#!/usr/bin/env bash
# gpt2_save_keeps_config.sh GPT2 WEIGHTS TEXT
# gpt2 --save D/x.safetensors wrote its config.json over
# whatever D/config.json was. Another model's is now refused before any work,
# left byte for byte; a hand-written one that describes this model is kept as
# it is, and the weights read back with it; an empty folder gets its config.
set -uo pipefail
gpt2=$1 weights=$2 text=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "--- stderr:"; cat "$dir/err"; echo "--- stdout (last lines):"; tail -n 5 "$dir/out"; exit 1; }
fine_tune() { "$gpt2" --weights "$weights" --fine-tune "$text" --steps 1 --batch 2 --context 8 --tokens 1 "$@" >"$dir/out" 2>"$dir/err"; }

mkdir "$dir/other" "$dir/new" "$dir/mine"
printf '{"model_type": "gpt2", "n_embd": 768, "n_head": 12, "n_layer": 12}\n' >"$dir/other/config.json"
before=$(sha256sum <"$dir/other/config.json")
fine_tune --save "$dir/other/x.safetensors"
status=$?
[ "$status" -eq 2 ] || fail "another model's config.json: exit status $status, expected 2"
[ "$(wc -l <"$dir/err")" -eq 1 ] && grep -qF "$dir/other/config.json describes another model" "$dir/err" ||
  fail "the line does not name the config.json"
[ ! -s "$dir/out" ] || fail "work was done before the refusal"
[ "$(sha256sum <"$dir/other/config.json")" = "$before" ] || fail "the other model's config.json was changed"
[ ! -e "$dir/other/x.safetensors" ] || fail "weights were written beside another model's config.json"
echo "ok: $(cat "$dir/err")"

fine_tune --save "$dir/new/x.safetensors" || fail "saving into an empty folder failed"
[ -f "$dir/new/config.json" ] || fail "no config.json written into the empty folder"

sed 's/^{$/{\n  "_name_or_path": "my own notes",/' "$dir/new/config.json" >"$dir/mine/config.json"
grep -q "my own notes" "$dir/mine/config.json" || fail "the test could not write its hand-written config.json"
before=$(sha256sum <"$dir/mine/config.json")
fine_tune --save "$dir/mine/x.safetensors" || fail "saving beside a config.json of this model failed"
[ "$(sha256sum <"$dir/mine/config.json")" = "$before" ] || fail "the hand-written config.json was rewritten"
"$gpt2" --weights "$dir/mine/x.safetensors" --prompt "Hello" --tokens 1 >"$dir/out" 2>"$dir/err" ||
  fail "the saved weights do not read back with the config.json beside them"
echo "ok: a config.json of this model is kept byte for byte, and the weights read back with it"
