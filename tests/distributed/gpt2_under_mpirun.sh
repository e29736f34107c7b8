#!/usr/bin/env bash
# gpt2_under_mpirun.sh MPIRUN GPT2 WEIGHTS TEXT
# gpt2's fine-tuning under `mpirun -np 2` (one_writer_under_mpirun.sh sees it
# print once and write on rank 0): a job stopped by SIGTERM once it has saved
# its state, resumed with two processes, ends with the safetensors of a job
# never stopped, byte for byte; the stop is reported once.
set -uo pipefail
mpirun=$1 gpt2=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "--- stderr:"; cat "$dir/err" 2>/dev/null; exit 1; }
np2=("$mpirun" -np 2 "$gpt2")
run=(--weights "$3" --fine-tune "$4" --steps 30 --batch 3 --context 16 --tokens 1)

"${np2[@]}" "${run[@]}" --save "$dir/whole.safetensors" >/dev/null 2>"$dir/err" || fail "the unstopped job failed"
# SIGTERM to every rank once the job has saved its state: the ranks agree on a step. The
# signal goes to the ranks, mpirun's children, as mpirun passes it on: on a loaded machine
# mpirun itself may not yet count the job as running and then passes nothing.
"${np2[@]}" "${run[@]}" --save "$dir/part.safetensors" --save-every 1 >/dev/null 2>"$dir/err" &
pid=$!
while [ ! -f "$dir/part.safetensors.resume" ] && kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
pkill -TERM -P "$pid"
wait "$pid"
[ "$(grep -c "stopped by SIGTERM at step .* written" "$dir/err")" -eq 1 ] || fail "the stop was not reported once"
"${np2[@]}" --resume "$dir/part.safetensors.resume" >/dev/null 2>"$dir/err" || fail "resuming with 2 processes failed"
cmp -s "$dir/whole.safetensors" "$dir/part.safetensors" || fail "stopped and resumed, the job's safetensors differ"
echo "ok: stopped by SIGTERM and resumed with 2 processes, the safetensors equal an unstopped job's, byte for byte"
