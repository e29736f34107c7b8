#!/usr/bin/env bash
# compare_builds.sh NATIVE WASM_JS [KNOBS]: the same training session (copy_task's
# default run unless KNOBS, a JSON object, says otherwise) natively and under node, one
# thread each. Prints the first step whose loss differs in any bit and the largest
# relative difference over the run, then both exact-match lines; fails when the
# exact-match counts differ. scripts/web.sh --compare runs it.
set -euo pipefail
native=$1 wasm=$2 knobs=${3:-'{}'}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$native" "$knobs" >"$tmp/native"
node "$wasm" "$knobs" >"$tmp/wasm"
python3 - "$tmp/native" "$tmp/wasm" <<'PY'
import re, sys
def read(path):
    text = open(path).read()
    losses = [float.fromhex(m) for m in re.findall(r"^step \d+ loss (\S+)", text, re.M)]
    line = re.search(r"^exact-match accuracy: .*$", text, re.M).group(0)
    return losses, line
(a, line_a), (b, line_b) = read(sys.argv[1]), read(sys.argv[2])
if len(a) != len(b) or not a:
    sys.exit(f"compare_builds: {len(a)} native steps, {len(b)} under node")
first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
worst = max(abs(x - y) / abs(x) for x, y in zip(a, b))
print(f"{len(a)} steps: " + ("every loss equal to the bit" if first is None else
      f"losses equal to the bit up to step {first}, step {first + 1} differs first "
      f"({a[first]!r} native, {b[first]!r} wasm); largest relative difference {worst:.2e}"))
print(f"native: {line_a}\nwasm:   {line_b}")
count = lambda line: re.match(r"exact-match accuracy: (\d+)/", line).group(1)
if count(line_a) != count(line_b):
    sys.exit("compare_builds: the exact-match counts differ")
PY
