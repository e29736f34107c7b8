
#include "benchmarks/machine.h"

#include <fstream>
#include <unistd.h>
#include <vector>

#include <cblas.h>
#include <fmt/format.h>

#include "lectern/autograd/threads.h"

#ifndef LECTERN_ISA
#define LECTERN_ISA "compiler default"
#endif

namespace benchmarks {

namespace {

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("model name", 0) == 0) {
            auto colon = line.find(':');
            return colon == std::string::npos ? line : line.substr(line.find_first_not_of(' ', colon + 1));
        }
    return "unknown CPU";
}

std::string compiler() {
#if defined(__clang__)
    return fmt::format("clang {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
    return fmt::format("GCC {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
    return "unknown compiler";
#endif
}

}  // namespace

std::string machine_line() {
    const int parallel = openblas_get_parallel();  // 0 sequential, 1 pthreads, 2 OpenMP
    return fmt::format("{}, {} cores online | {} ({}) | {} | {}", cpu_model(), sysconf(_SC_NPROCESSORS_ONLN),
                       openblas_get_config(),
                       parallel == 2   ? "OpenMP"
                       : parallel == 1 ? "pthreads"
                                       : "sequential",
                       compiler(), LECTERN_ISA);
}

SgemmPeak measure_sgemm_peak(std::int64_t n, int runs) {
    const auto size = static_cast<std::size_t>(n * n);
    std::vector<float> a(size), b(size), c(size);
    for (std::size_t i = 0; i < size; ++i) {  // fixed, non-trivial values (no denormals, no zeros)
        a[i] = 0.5f + static_cast<float>(i % 7) * 0.125f;
        b[i] = 1.0f - static_cast<float>(i % 5) * 0.0625f;
    }
    const int m = static_cast<int>(n);
    openblas_set_num_threads(autograd::num_threads());  // OpenBLAS's own split, on as many threads as the kernels
    double seconds = median_seconds(
        [&] {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, m, m, 1.0f, a.data(), m, b.data(), m, 0.0f,
                        c.data(), m);
        },
        runs);
    return {n, 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n) / seconds / 1e9};
}

}  // namespace benchmarks
