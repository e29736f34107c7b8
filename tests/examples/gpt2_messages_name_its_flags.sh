#!/usr/bin/env bash
# gpt2_messages_name_its_flags.sh GPT2 WEIGHTS TEXT
# Drives gpt2 into the errors a user meets (a fine-tuning text over its 1 GiB bound, a
# fine-tuning that diverges, a --context or a prompt the model cannot hold) and checks that
# each ends with one line on stderr whose every --flag is one of gpt2's own (it once named
# --max-text-bytes, a flag of char_lm).
set -uo pipefail
gpt2=$1 weights=$2 text=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$gpt2" --help | grep -oE -- '(^ +|,)--[a-z][a-z-]*' | tr -d ' ,' | sort -u >"$dir/flags"  # -h,--help too
[ -s "$dir/flags" ] || fail "gpt2 --help lists no flags"
truncate -s $(((1 << 30) + 1)) "$dir/huge.txt"  # sparse: a GiB and one byte of nothing
check() {  # STATUS ARGS...: the status, one line, and only gpt2's flags in it
  local want=$1
  shift
  "$gpt2" --weights "$weights" "$@" >"$dir/out" 2>"$dir/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "gpt2 $*: exit status $got, expected $want: $(cat "$dir/err")"
  [ "$(wc -l <"$dir/err")" -eq 1 ] || fail "gpt2 $*: stderr has $(wc -l <"$dir/err") lines: $(head -3 "$dir/err")"
  for flag in $(grep -oE -- '--[a-z][a-z-]*' "$dir/err"); do
    grep -qxF -- "$flag" "$dir/flags" || fail "gpt2 $*: the message names $flag, which gpt2 does not have: $(cat "$dir/err")"
  done
  echo "ok: $(cat "$dir/err")"
}
check 1 --fine-tune "$dir/huge.txt" --steps 2 --context 8 --tokens 1  # refused by its size, not read
check 1 --fine-tune "$text" --steps 3 --batch 2 --context 8 --lr 1e30 --tokens 1
check 2 --fine-tune "$text" --steps 2 --context 64 --tokens 1
check 2 --prompt "$(printf 'word %.0s' {1..40})" --tokens 1
