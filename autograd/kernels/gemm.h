#pragma once
// The one call into BLAS (docs/design.md, "Speed on two cores"). Internal to autograd.
#include <cblas.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "autograd/parallel.h"

namespace autograd::detail {

// The largest size a BLAS argument takes (sizes are blasint).
inline constexpr std::int64_t kBlasMax = std::numeric_limits<blasint>::max();

// C[m, n] = op(A) op(B) + beta C for row-major A, B, C whose rows are lda, ldb and ldc
// apart (wider than the matrix when it is one head's columns of a wider tensor); beta 0
// overwrites C (BLAS then zeroes C in a pass of its own), beta 1 adds to it.
// One BLAS call on the calling thread (serial inside a parallel loop).
template <class T>
void gemm_call(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, const T* a, std::int64_t lda,
               const T* b, std::int64_t ldb, T* c, std::int64_t ldc, T beta) {
    const auto fa = ta ? CblasTrans : CblasNoTrans;
    const auto fb = tb ? CblasTrans : CblasNoTrans;
    const auto M = static_cast<blasint>(m), N = static_cast<blasint>(n), K = static_cast<blasint>(k);
    const auto LDA = static_cast<blasint>(lda), LDB = static_cast<blasint>(ldb), LDC = static_cast<blasint>(ldc);
    if constexpr (std::is_same_v<T, float>)
        cblas_sgemm(CblasRowMajor, fa, fb, M, N, K, 1.0f, a, LDA, b, LDB, beta, c, LDC);
    else
        cblas_dgemm(CblasRowMajor, fa, fb, M, N, K, 1.0, a, LDA, b, LDB, beta, c, LDC);
}

// y += A x for A [m, n] row-major (row stride lda): one BLAS matrix-vector call, which
// reads A once and packs nothing.
template <class T>
void gemv_call(std::int64_t m, std::int64_t n, const T* a, std::int64_t lda, const T* x, T* y) {
    const auto M = static_cast<blasint>(m), N = static_cast<blasint>(n), LDA = static_cast<blasint>(lda);
    if constexpr (std::is_same_v<T, float>)
        cblas_sgemv(CblasRowMajor, CblasNoTrans, M, N, 1.0f, a, LDA, x, 1, 1.0f, y, 1);
    else
        cblas_dgemv(CblasRowMajor, CblasNoTrans, M, N, 1.0, a, LDA, x, 1, 1.0, y, 1);
}

// The same, C's rows split over the threads, each part one BLAS call on its thread (rows
// i0..i1 of C need rows i0..i1 of op(A): A's rows, or its columns when transposed). On two
// threads this is faster than OpenBLAS's own split on the models' products (docs/
// performance.md). The parts' sums can round differently from one whole call's (with A
// transposed they do), so a product may differ in the last bit between thread counts.
template <class T>
void gemm(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, const T* a, std::int64_t lda,
          const T* b, std::int64_t ldb, T* c, std::int64_t ldc, T beta = 0) {
    // A multiply-add costs about an eighth of an elementwise kernel's element.
    parallel_for(m, std::max<std::int64_t>(n * k / 8, 1), [&](std::int64_t begin, std::int64_t end) {
        gemm_call(ta, tb, end - begin, n, k, a + (ta ? begin : begin * lda), lda, b, ldb, c + begin * ldc, ldc, beta);
    });
}

// The same for packed matrices: each row as long as the matrix is wide.
template <class T>
void gemm(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, const T* a, const T* b, T* c,
          T beta = 0) {
    gemm(ta, tb, m, n, k, a, ta ? m : k, b, tb ? k : n, c, n, beta);
}

}  // namespace autograd::detail
