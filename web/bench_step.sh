#!/usr/bin/env bash
# bench_step.sh NATIVE WASM_JS [STEPS]: a training step of the copy task (the page's
# default model, batch 64) natively and under node, one thread each, the two runs in
# turn, and the ratio. Prints only; passes whatever it measures.
set -euo pipefail
native=$1 wasm=$2 steps=${3:-200}
knobs="{\"steps\": $steps}"
ms() { grep -o 'ms per step: [0-9.]*' | grep -o '[0-9.]*$'; }
n=$("$native" --quiet "$knobs" | ms)
w=$(node "$wasm" --quiet "$knobs" | ms)
python3 -c "print(f'a training step, {$steps} steps on 1 thread: native {$n:.2f} ms, wasm (node) {$w:.2f} ms, wasm/native {$w / $n:.2f}x')"
