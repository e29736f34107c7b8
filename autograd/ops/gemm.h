#pragma once
// The one call into BLAS (docs/design.md, "Speed on two cores"). Internal to autograd.
#include <cblas.h>

#include <cstdint>
#include <limits>
#include <type_traits>

namespace autograd::detail {

// The largest size a BLAS argument takes (sizes are blasint).
inline constexpr std::int64_t kBlasMax = std::numeric_limits<blasint>::max();

// C[m, n] = op(A) op(B) + beta C for row-major A, B, C whose rows are lda, ldb and ldc
// apart (wider than the matrix when it is one head's columns of a wider tensor); beta 0
// overwrites C (BLAS then zeroes C in a pass of its own), beta 1 adds to it.
template <class T>
void gemm(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, const T* a, std::int64_t lda,
          const T* b, std::int64_t ldb, T* c, std::int64_t ldc, T beta = 0) {
    const auto fa = ta ? CblasTrans : CblasNoTrans;
    const auto fb = tb ? CblasTrans : CblasNoTrans;
    const auto M = static_cast<blasint>(m), N = static_cast<blasint>(n), K = static_cast<blasint>(k);
    const auto LDA = static_cast<blasint>(lda), LDB = static_cast<blasint>(ldb), LDC = static_cast<blasint>(ldc);
    if constexpr (std::is_same_v<T, float>)
        cblas_sgemm(CblasRowMajor, fa, fb, M, N, K, 1.0f, a, LDA, b, LDB, beta, c, LDC);
    else
        cblas_dgemm(CblasRowMajor, fa, fb, M, N, K, 1.0, a, LDA, b, LDB, beta, c, LDC);
}

// The same for packed matrices: each row as long as the matrix is wide.
template <class T>
void gemm(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, const T* a, const T* b, T* c,
          T beta = 0) {
    gemm(ta, tb, m, n, k, a, ta ? m : k, b, tb ? k : n, c, n, beta);
}

}  // namespace autograd::detail
