#pragma once
// The one call into BLAS (docs/design.md, "Speed on two cores"). Internal to autograd.
#include <cblas.h>

#include <cstdint>
#include <limits>
#include <type_traits>

namespace autograd::detail {

// The largest size a BLAS argument takes (sizes are blasint).
inline constexpr std::int64_t kBlasMax = std::numeric_limits<blasint>::max();

// C[m, n] = op(A) op(B) + beta C for row-major A, B with leading dims set by the flags;
// beta 0 overwrites C (BLAS then zeroes C in a pass of its own), beta 1 adds to it.
template <class T>
void gemm(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, const T* a, const T* b, T* c,
          T beta = 0) {
    const auto lda = static_cast<blasint>(ta ? m : k);
    const auto ldb = static_cast<blasint>(tb ? k : n);
    const auto fa = ta ? CblasTrans : CblasNoTrans;
    const auto fb = tb ? CblasTrans : CblasNoTrans;
    const auto M = static_cast<blasint>(m), N = static_cast<blasint>(n), K = static_cast<blasint>(k);
    if constexpr (std::is_same_v<T, float>)
        cblas_sgemm(CblasRowMajor, fa, fb, M, N, K, 1.0f, a, lda, b, ldb, beta, c, static_cast<blasint>(n));
    else
        cblas_dgemm(CblasRowMajor, fa, fb, M, N, K, 1.0, a, lda, b, ldb, beta, c, static_cast<blasint>(n));
}

}  // namespace autograd::detail
