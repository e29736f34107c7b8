#include "benchmarks/sgemm_peak.h"

#include <cblas.h>

#include <vector>

#include "benchmarks/median_time.h"

namespace benchmarks {

SgemmPeak measure_sgemm_peak(std::int64_t n, int runs) {
    const auto size = static_cast<std::size_t>(n * n);
    std::vector<float> a(size), b(size), c(size);
    for (std::size_t i = 0; i < size; ++i) {  // fixed, non-trivial values (no denormals, no zeros)
        a[i] = 0.5f + static_cast<float>(i % 7) * 0.125f;
        b[i] = 1.0f - static_cast<float>(i % 5) * 0.0625f;
    }
    const int m = static_cast<int>(n);
    double seconds = median_seconds(
        [&] {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, m, m, 1.0f, a.data(), m, b.data(), m, 0.0f,
                        c.data(), m);
        },
        runs);
    return {n, 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n) / seconds / 1e9};
}

}  // namespace benchmarks
