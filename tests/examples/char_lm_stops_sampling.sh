#!/usr/bin/env bash
# char_lm_stops_sampling.sh STOP_WHILE_SAMPLING CHAR_LM TEXT
# A model trained for a few steps on TEXT (no fortunes separator, so nothing ends its samples)
# is loaded and asked for a sample of a million characters; one Ctrl-C ends the sample where it
# is (stop_while_sampling.sh). Sampling once ignored the first Ctrl-C to its end.
set -uo pipefail
stop_while_sampling=$1 char_lm=$2 text=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
lm=(--text "$text" --layers 1 --d-model 16 --d-ff 16 --context 16)
"$char_lm" "${lm[@]}" --epochs 1 --steps 2 --val-windows 2 --sample-chars 10 --save "$dir/lm.ckpt" >/dev/null \
  2>"$dir/err" || { echo "FAIL: training failed: $(cat "$dir/err")"; exit 1; }
"$stop_while_sampling" "--- sample (temperature" "$char_lm" --load "$dir/lm.ckpt" --text "$text" --val-windows 2 \
  --sample-chars 1000000
