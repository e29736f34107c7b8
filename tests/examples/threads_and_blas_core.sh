#!/usr/bin/env bash
# threads_and_blas_core.sh COPY_TASK
# The thread count defaults to the cores the process may use (its affinity) or
# OMP_NUM_THREADS, is capped at those cores, and is said in the header; an
# OpenBLAS that runs kernels below the CPU's AVX2 is named with its fix, and
# --blas-core restarts the program under the kernels asked for. The portable
# build (-Dblas=disabled) names its GEMM and says --blas-core has nothing to choose.
set -uo pipefail
copy_task=$1
run=(--epochs 1 --batches-per-epoch 2 --eval-sequences 10 --show 0 --d-model 16 --d-ff 16 --heads 2)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail() { echo "FAIL: $*"; head -n 3 "$out"; exit 1; }
cores=$(nproc)

env -u OMP_NUM_THREADS "$copy_task" "${run[@]}" >"$out" || fail "the default run failed"
[ "$cores" -eq 1 ] && want="1 thread (1 core)" || want="$cores threads ($cores cores)"
grep -q "| $want, " "$out" || fail "the default is not every core: expected '$want'"
env -u OMP_NUM_THREADS taskset -c 0 "$copy_task" "${run[@]}" >"$out" || fail "the run under taskset failed"
grep -q "| 1 thread (1 core), " "$out" || fail "the affinity (taskset -c 0) was not respected"
OMP_NUM_THREADS=1 "$copy_task" "${run[@]}" >"$out" || fail "the run with OMP_NUM_THREADS=1 failed"
grep -q "| 1 thread (" "$out" || fail "OMP_NUM_THREADS=1 was not respected"
"$copy_task" "${run[@]}" --threads $((cores * 4)) >"$out" || fail "the run with too many threads failed"
grep -q "^--threads $((cores * 4)): this process may use $cores cores; running $cores threads" "$out" || fail "more threads than cores were not capped"
echo "ok: threads default to the $cores cores, follow taskset and OMP_NUM_THREADS, and are capped at the cores"

if grep -q "Lectern's portable GEMM" "$out"; then
  "$copy_task" "${run[@]}" --blas-core Haswell >"$out" || fail "--blas-core Haswell failed in the portable build"
  grep -q "^--blas-core Haswell: this build runs Lectern's own GEMM" "$out" || fail "--blas-core was not answered"
  echo "ok: the portable build names its GEMM, and --blas-core says there is nothing to choose"
elif grep -q -w avx2 /proc/cpuinfo && grep -q -w fma /proc/cpuinfo; then
  OPENBLAS_CORETYPE=Prescott "$copy_task" "${run[@]}" >"$out" || fail "the run on Prescott kernels failed"
  grep -q "OpenBLAS Prescott" "$out" || fail "the header does not name the Prescott kernels"
  grep -q "^warning: OpenBLAS runs its Prescott kernels on a CPU with AVX2.*OPENBLAS_CORETYPE=Haswell" "$out" ||
    fail "no warning about the Prescott kernels"
  OPENBLAS_CORETYPE=Prescott "$copy_task" "${run[@]}" --blas-core Haswell >"$out" || fail "--blas-core Haswell failed"
  grep -q "OpenBLAS Haswell" "$out" || fail "--blas-core Haswell did not restart under the Haswell kernels"
  grep -q "^warning:" "$out" && fail "a warning remains under the Haswell kernels"
  echo "ok: Prescott kernels on an AVX2 CPU are named with the fix, and --blas-core Haswell applies it"
else
  echo "ok: this CPU has no AVX2: the kernels' check has nothing to find"
fi
