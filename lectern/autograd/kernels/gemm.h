#pragma once
// The one call into BLAS (docs/design.md, "Speed on two cores"). Internal to autograd.
#include <cblas.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "lectern/autograd/parallel.h"

namespace autograd::detail {

// The largest size a BLAS argument takes (sizes are blasint).
inline constexpr std::int64_t kBlasMax = std::numeric_limits<blasint>::max();

// OpenBLAS splits a call over as many threads as OpenMP allows outside a parallel region,
// and its split rounds differently from one thread's. Every call here runs on one thread:
// inside the parallel loops below, where OpenBLAS is serial, or with this thread's OpenMP
// limit at 1 for the call's length. The threads' work is split by the loops here alone.
class SerialBlas {
  public:
    SerialBlas() : saved_(omp_in_parallel() ? 1 : omp_get_max_threads()) {
        if (saved_ > 1) omp_set_num_threads(1);
    }
    ~SerialBlas() {
        if (saved_ > 1) omp_set_num_threads(saved_);
    }
    SerialBlas(const SerialBlas&) = delete;
    SerialBlas& operator=(const SerialBlas&) = delete;

  private:
    int saved_;
};

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
    SerialBlas serial;
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
    SerialBlas serial;
    if constexpr (std::is_same_v<T, float>)
        cblas_sgemv(CblasRowMajor, CblasNoTrans, M, N, 1.0f, a, LDA, x, 1, 1.0f, y, 1);
    else
        cblas_dgemv(CblasRowMajor, CblasNoTrans, M, N, 1.0, a, LDA, x, 1, 1.0, y, 1);
}

// OpenBLAS's sgemm goes over C's rows in chunks of three times its kernel's width (12 rows
// with the Haswell and Zen kernels' width 4, 24 with a width of 8), and a row's sum can round
// differently at a chunk's edge. Parts of C that begin on a multiple of this many rows put
// every row in the same chunk as one whole call does: a product is the same to the bit however
// its rows are split (docs/design.md says where this holds, and what was measured).
inline constexpr std::int64_t kGemmRowAlign = 24;

// The same, C's rows split over the threads in parts that begin on multiples of
// kGemmRowAlign, each part one BLAS call on its thread (rows i0..i1 of C need rows i0..i1
// of op(A): A's rows, or its columns when transposed). On two threads this is faster than
// OpenBLAS's own split on the models' products (docs/performance.md).
template <class T>
void gemm(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, const T* a, std::int64_t lda,
          const T* b, std::int64_t ldb, T* c, std::int64_t ldc, T beta = 0) {
    // A multiply-add costs about an eighth of an elementwise kernel's element.
    const std::int64_t row_cost = std::max<std::int64_t>(n * k / 8, 1);
    parallel_for_aligned(m, row_cost, kGemmRowAlign, [&](std::int64_t begin, std::int64_t end) {
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
