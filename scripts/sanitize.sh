#!/usr/bin/env bash
# sanitize.sh: the whole test suite, short runs of every example included,
# under AddressSanitizer (leak detection on) and UndefinedBehaviorSanitizer,
# in build-sanitize/, but for the suite 'long'. Any report fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_packages.sh setup
if [ ! -f build-sanitize/build.ninja ]; then
  echo "sanitize: configuring build-sanitize/ (address and undefined sanitizers)"
  meson setup build-sanitize --buildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
echo "sanitize: building (ninja -C build-sanitize)"
ninja -C build-sanitize | tail -n 1
# UBSan's reports are errors, not warnings; ASan checks for leaks at exit.
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
# Allocations fontconfig and libltdl (under PLplot's cairo driver) keep until exit by design.
# print_suppressions=0: the table of suppressed leaks would otherwise end the output of every
# program that drew a figure, after its last line, which the tests read.
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan_suppressions.txt:print_suppressions=0"
# The suite 'long' (translate run again and again over the Bibles) is left out: each of its paths
# runs once in the other tests, and under the sanitizers it would take CI's time.
meson test -C build-sanitize --print-errorlogs --timeout-multiplier 4 --no-suite long
