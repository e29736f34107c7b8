#pragma once
// What the machine can do and what a process used: the report's machine line, the sgemm peak
// that model FLOP utilisation is measured against, peak RSS, and the one timer.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <sys/resource.h>
#include <vector>

namespace benchmarks {

// The machine line of a benchmark report: CPU model, cores, BLAS, compiler,
// instruction set the build targets.
std::string machine_line();

// The machine's limit for the models' main work: float32 GEMM through the
// same OpenBLAS, on the same threads, at a size large enough to run at its
// best. Model FLOP utilisation is reported against it (docs/design.md, "Speed on two cores").
struct SgemmPeak {
    std::int64_t n = 0;  // square size
    double gflops = 0;   // 2 n^3 / median time
};

// The median of `runs` cblas_sgemm calls of [n, n] x [n, n] after a warm-up,
// on OpenBLAS's current thread count (autograd::set_num_threads).
SgemmPeak measure_sgemm_peak(std::int64_t n, int runs);

// The process's peak resident set size so far, in MB (getrusage's ru_maxrss,
// which Linux counts in KiB).
inline double peak_rss_mb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

// The benchmarks' one timer: a warm-up call, then the median of `runs` calls.
// Seconds per call of f(), the median of `runs` after one warm-up call (the
// caching allocator and OpenBLAS's buffers fill on the first).
template <class F>
double median_seconds(F f, int runs = 9) {
    std::vector<double> t;
    f();
    for (int i = 0; i < runs; ++i) {
        auto start = std::chrono::steady_clock::now();
        f();
        t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

}  // namespace benchmarks
