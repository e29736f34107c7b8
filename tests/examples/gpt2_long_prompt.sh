#!/usr/bin/env bash
# gpt2_long_prompt.sh EXPECT_ERROR GPT2 WEIGHTS
# A prompt of one 120,000-letter word (near the longest argument Linux passes) is counted and
# refused as a flag before the model is loaded: encoding it once took 10 s, a rescan of the whole
# word per merge. The test's timeout holds the "seconds".
set -uo pipefail
expect_error=$1 gpt2=$2 weights=$3
prompt=$(awk 'BEGIN { srand(1); for (i = 0; i < 120000; ++i) printf "%c", 97 + int(rand() * 26) }')
exec "$expect_error" 2 "--prompt: its " --quiet -- "$gpt2" --weights "$weights" --prompt "$prompt"
