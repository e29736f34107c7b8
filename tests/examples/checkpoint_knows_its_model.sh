#!/usr/bin/env bash
# checkpoint_knows_its_model.sh COPY_TASK CHAR_LM
# A checkpoint carries the flags its model was built from and char_lm's
# alphabet or subword merges: --load adopts them and says so, refuses a flag given with another
# value (naming both), refuses a checkpoint whose record of a flag is gone, and
# never evaluates a silently different model. A
# reader that goes away (SIGPIPE) stops a run with its checkpoint saved. An
# output that is a device or a FIFO is refused.
set -uo pipefail
copy_task=$1 char_lm=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "--- stderr:"; cat "$dir/err" 2>/dev/null; exit 1; }
small=(--epochs 1 --batches-per-epoch 5 --eval-sequences 10 --show 0 --d-model 32 --d-ff 64 --heads 2)

# A device or FIFO named as an output is refused before any work and left as it was. (A device of
# our own, as /dev/null is: were the check broken, the real one would become a file for the machine.)
mkfifo "$dir/fifo"
devices=("$dir/fifo")
mknod "$dir/null" c 1 3 2>/dev/null && devices+=("$dir/null")
for out in "${devices[@]}"; do
  "$copy_task" "${small[@]}" --save "$out" >"$dir/out" 2>"$dir/err"
  [ $? -eq 2 ] && grep -q -- "--save: $out exists and is not a regular file" "$dir/err" || fail "--save $out was not refused"
  [ -s "$dir/out" ] && fail "work was done before refusing --save $out"
  [ -p "$out" ] || [ -c "$out" ] || fail "$out was replaced"
done
echo "ok: --save onto a FIFO or a device is refused and leaves it as it was"

"$copy_task" "${small[@]}" --save "$dir/ct.ckpt" >/dev/null 2>"$dir/err" || fail "training the copy task failed"
"$copy_task" --load "$dir/ct.ckpt" --eval-sequences 10 >"$dir/out" 2>"$dir/err" || fail "--load alone failed"
grep -q "from $dir/ct.ckpt: --d-model 32, --heads 2, --d-ff 64" "$dir/out" || fail "--load did not say which flags it adopted: $(head -3 "$dir/out")"
"$copy_task" --load "$dir/ct.ckpt" --heads 4 >"$dir/out" 2>"$dir/err"
[ $? -eq 2 ] || fail "--load with another --heads did not exit 2"
grep -q -- "--heads: 4 here, but $dir/ct.ckpt was saved with --heads 2" "$dir/err" || fail "the refusal does not name both values"
[ -s "$dir/out" ] && fail "work was done before the refusal"
"$char_lm" --load "$dir/ct.ckpt" >/dev/null 2>"$dir/err"
[ $? -eq 2 ] && grep -q "is a checkpoint of copy_task, not of char_lm" "$dir/err" || fail "a copy-task checkpoint reached char_lm"
echo "ok: --load adopts the recorded flags, refuses others, and refuses another program's checkpoint"

# A checkpoint whose record of --heads is gone, its checksum made good again, still holds
# parameters of the shapes h=4 would build: it is refused as damaged, not loaded with the default.
remove_record=$(cat <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
version, flags, step, count = struct.unpack_from("<IIqI", data, 8)
pos, kept, removed = 28, [], 0
size = {0: 4, 1: 8, 2: 8, 3: 1}
for _ in range(count):
    start = pos
    kind, n = struct.unpack_from("<BI", data, pos); pos += 5
    name = data[pos:pos + n].decode(errors="replace"); pos += n
    dtype, ndim = struct.unpack_from("<BI", data, pos); pos += 5
    numel = 1
    for d in struct.unpack_from(f"<{ndim}q", data, pos): numel *= d
    pos += 8 * ndim + numel * size[dtype]
    if name == sys.argv[3]: removed += 1
    else: kept.append(data[start:pos])
assert version == 6 and removed == 1 and pos == len(data) - 4, (version, removed)
body = struct.pack("<IIqI", version, flags, step, count - 1) + b"".join(kept)
open(sys.argv[2], "wb").write(b"LECTERN\0" + body + struct.pack("<I", zlib.crc32(body)))
PY
)
python3 - "$dir/ct.ckpt" "$dir/no_heads.ckpt" flag.--heads <<<"$remove_record" || fail "could not remove the record"
for how in --load --resume; do
  "$copy_task" $how "$dir/no_heads.ckpt" --eval-sequences 10 >"$dir/out" 2>"$dir/err"
  status=$?
  [ $status -ne 0 ] || fail "$how of a checkpoint without its --heads record ran (h=4 instead of h=2)"
  [ $status -eq 2 ] && [ "$(wc -l <"$dir/err")" -eq 1 ] \
    && grep -q -- "$how: $dir/no_heads.ckpt is damaged: it holds no record of --heads" "$dir/err" \
    || fail "$how of a checkpoint without its --heads record: status $status, not one line naming the flag and the file"
  [ -s "$dir/out" ] && fail "work was done before refusing $how"
done
echo "ok: a checkpoint missing a recorded model flag is refused as damaged, naming the flag and the file"

# A whole checkpoint whose weights are not its model's (a parameter gone, or a moment of the
# optimizer's state) is refused as a file named by a flag is: status 2, one line naming both.
for cut in "--load generator.proj.bias has no parameter 'generator.proj.bias'" \
           "--resume exp_avg.3 optimizer state does not fit"; do
  read -r how record expected <<<"$cut"
  python3 - "$dir/ct.ckpt" "$dir/cut.ckpt" "$record" <<<"$remove_record" || fail "could not remove $record"
  "$copy_task" $how "$dir/cut.ckpt" --eval-sequences 10 >"$dir/out" 2>"$dir/err"
  status=$?
  [ $status -eq 2 ] && [ "$(wc -l <"$dir/err")" -eq 1 ] && grep -qF -- "$dir/cut.ckpt" "$dir/err" \
    && grep -qF -- "$expected" "$dir/err" || fail "$how of a checkpoint without $record: status $status, not one line saying so"
done
echo "ok: a checkpoint whose tensors do not fit its model is refused with status 2, naming the file and the tensor"

# char_lm's alphabet travels with the model: a text of other characters is refused, not shifted.
printf 'abcab cabca bcabc\nabcab cabca\n%.0s' {1..40} >"$dir/abc.txt"
printf 'xyzxy zxyzx yzxyz\nxyzxy zxyzx\n%.0s' {1..40} >"$dir/xyz.txt"
lm=(--epochs 1 --steps 3 --layers 1 --d-model 16 --d-ff 16 --context 16 --val-windows 2 --sample-chars 10)
"$char_lm" --text "$dir/abc.txt" "${lm[@]}" --save "$dir/lm.ckpt" >/dev/null 2>"$dir/err" || fail "training char_lm failed"
"$char_lm" --load "$dir/lm.ckpt" --text "$dir/xyz.txt" --sample-chars 10 >/dev/null 2>"$dir/err"
[ $? -eq 1 ] && grep -q "not in the alphabet, the checkpoint's alphabet of 5" "$dir/err" || fail "a text of another alphabet was accepted"
"$char_lm" --load "$dir/lm.ckpt" --text "$dir/abc.txt" --sample-chars 10 >"$dir/out" 2>"$dir/err" || fail "--load on its own text failed"
echo "ok: char_lm keeps its alphabet in the checkpoint and refuses a text it cannot read"

# Subwords: the merges learnt travel with the model, so --load reads any text with them. The
# text's pieces ("abcab", " cabca", ...) are whole tokens after 8 merges, and learning stops there.
"$char_lm" --text "$dir/abc.txt" "${lm[@]}" --tokens subwords --bpe-vocab 270 --save "$dir/sw.ckpt" >"$dir/out" \
  2>"$dir/err" || fail "training char_lm on subwords failed"
grep -q "learnt 8 byte-pair merges" "$dir/out" || fail "no merges learnt: $(head -2 "$dir/out")"
grep -q -- "--bpe-vocab 270 is more than the text gives: its pieces are all whole tokens, a vocabulary of 264" \
  "$dir/out" || fail "the vocabulary the text cannot reach was not named: $(head -2 "$dir/out")"
"$char_lm" --load "$dir/sw.ckpt" --text "$dir/xyz.txt" --prompt "zz" --sample-chars 5 >"$dir/out" 2>"$dir/err" \
  || fail "--load of a subword model on another text failed"
grep -q "from $dir/sw.ckpt: --tokens subwords, --bpe-vocab 270" "$dir/out" || fail "--tokens was not adopted: $(head -3 "$dir/out")"
grep -q "learnt" "$dir/out" && fail "--load learnt merges again instead of reading the checkpoint's"
grep -q "a vocabulary of 264" "$dir/out" || fail "the checkpoint's vocabulary was not used: $(head -3 "$dir/out")"
echo "ok: char_lm keeps its subword merges in the checkpoint"

# A reader that goes away: the run saves at the next step and exits 141 (128 + SIGPIPE).
"$copy_task" --epochs 3 --batches-per-epoch 20 --eval-sequences 10 --d-model 32 --d-ff 64 --heads 2 \
  --save "$dir/pipe.ckpt" 2>"$dir/err" | head -n 1 >/dev/null
status=${PIPESTATUS[0]}
[ "$status" -eq 141 ] || fail "status $status after the reader went away, expected 141"
grep -q "stopped by SIGPIPE at step .* written" "$dir/err" || fail "the run did not say it saved"
"$copy_task" --resume "$dir/pipe.ckpt" --eval-sequences 10 >/dev/null 2>"$dir/err" || fail "resuming after SIGPIPE failed"
echo "ok: SIGPIPE from | head saves the run, which resumes"
