#pragma once
// The machine's limit for the models' main work: float32 GEMM through the
// same OpenBLAS, on the same threads, at a size large enough to run at its
// best. Model FLOP utilisation is reported against it (docs/design.md, "Speed on two cores").
#include <cstdint>

namespace benchmarks {

struct SgemmPeak {
    std::int64_t n = 0;    // square size
    double gflops = 0;     // 2 n^3 / median time
};

// The median of `runs` cblas_sgemm calls of [n, n] x [n, n] after a warm-up,
// on OpenBLAS's current thread count (autograd::set_num_threads).
SgemmPeak measure_sgemm_peak(std::int64_t n, int runs);

}  // namespace benchmarks
