#!/usr/bin/env bash
# fuzz.sh [SECONDS] [TARGET...]: fuzzes the file loaders with libFuzzer under
# ASan and UBSan, each target for SECONDS (default 600), all at once.
# Targets: checkpoint (nn::load_checkpoint), idx (data's IDX reader),
# char_corpus (char_lm's text reader and alphabet), safetensors (nn::SafetensorsFile
# and models::load_gpt2_weights).
# Builds build-fuzz/ with clang; seeds are valid files made by the build;
# corpora grow in build-fuzz/corpus/TARGET; a crash, hang, leak or oversized
# allocation is saved in build-fuzz/findings/TARGET/ and the run says so.
# Each finding becomes a regression test in tests/ (the test writes the file).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(checkpoint idx char_corpus safetensors)

./scripts/install_packages.sh setup fuzz
if [ ! -f build-fuzz/build.ninja ]; then
  echo "fuzz: configuring build-fuzz/ (clang, -Dfuzz=true, address and undefined sanitizers)"
  CXX=clang++-14 meson setup build-fuzz --buildtype=debugoptimized -Dfuzz=true \
    -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
ninja -C build-fuzz fuzz/fuzz_checkpoint fuzz/fuzz_idx fuzz/fuzz_char_corpus fuzz/fuzz_safetensors fuzz/make_fuzz_seeds | tail -n 1
./build-fuzz/fuzz/make_fuzz_seeds build-fuzz/seeds >/dev/null

export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1
pids=()
for t in "${targets[@]}"; do
  mkdir -p "build-fuzz/corpus/$t" "build-fuzz/findings/$t"
  echo "fuzz: $t for ${seconds} s (log: build-fuzz/fuzz_$t.log)"
  # -malloc_limit_mb: one allocation over 256 MB from a file of a few KB is a
  # size taken from the file unchecked; -timeout: one input over 10 s is a hang.
  ./build-fuzz/fuzz/fuzz_"$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256 \
    -max_len=4096 -print_final_stats=1 -artifact_prefix="build-fuzz/findings/$t/" \
    "build-fuzz/corpus/$t" "build-fuzz/seeds/$t" >"build-fuzz/fuzz_$t.log" 2>&1 &
  pids+=($!)
done
status=0
for i in "${!targets[@]}"; do
  t=${targets[$i]}
  wait "${pids[$i]}" || status=1
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "build-fuzz/fuzz_$t.log" | grep -o '[0-9]*$' || echo '?')
  findings=$(find "build-fuzz/findings/$t" -type f | wc -l)
  echo "fuzz: $t: $runs inputs run, corpus $(find "build-fuzz/corpus/$t" -type f | wc -l) files, $findings findings"
done
[ $status -eq 0 ] || echo "fuzz: a target stopped on a finding; see build-fuzz/fuzz_*.log and build-fuzz/findings/"
exit $status
