#pragma once
// The one way into a matrix product (docs/design.md, "Speed on two cores"). Internal to autograd.
// Which GEMM runs is chosen by meson (option blas), by the file it compiles: OpenBLAS's in the
// default build (kernels/gemm_backend_openblas.cpp), Lectern's own in the portable build
// (kernels/gemm_backend_portable.cpp, running kernels/gemm_portable.h). Everything above this
// header is the same source in both.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "lectern/autograd/parallel.h"

namespace autograd::detail {

// The largest size a GEMM argument takes: OpenBLAS's sizes are 32-bit ints (blasint), and the
// portable build keeps the same limit so that both refuse the same shapes.
inline constexpr std::int64_t kBlasMax = std::numeric_limits<std::int32_t>::max();

// C[m, n] = op(A) op(B) + beta C for row-major A, B, C whose rows are lda, ldb and ldc
// apart (wider than the matrix when it is one head's columns of a wider tensor); beta 0
// overwrites C (never reading it), beta 1 adds to it. One call on the calling thread, serial
// inside a parallel loop or not. Defined for float and double.
template <class T>
void gemm_call(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, const T* a, std::int64_t lda,
               const T* b, std::int64_t ldb, T* c, std::int64_t ldc, T beta);

// OpenBLAS's sgemm goes over C's rows in chunks of three times its kernel's width (12 rows
// with the Haswell and Zen kernels' width 4, 24 with a width of 8), and a row's sum can round
// differently at a chunk's edge. Parts of C that begin on a multiple of this many rows put
// every row in the same chunk as one whole call does: a product is the same to the bit however
// its rows are split (docs/design.md says where this holds, and what was measured). The
// portable GEMM sums every element in an order set by k alone, so any split would do there;
// the parts are the same in both builds.
inline constexpr std::int64_t kGemmRowAlign = 24;

// The same, C's rows split over the threads in parts that begin on multiples of
// kGemmRowAlign, each part one gemm_call on its thread (rows i0..i1 of C need rows i0..i1
// of op(A): A's rows, or its columns when transposed). On two threads this is faster than
// OpenBLAS's own split on the models' products (docs/performance.md).
template <class T>
void gemm(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, const T* a, std::int64_t lda, const T* b,
          std::int64_t ldb, T* c, std::int64_t ldc, T beta = 0) {
    // A multiply-add costs about an eighth of an elementwise kernel's element.
    const std::int64_t row_cost = std::max<std::int64_t>(n * k / 8, 1);
    parallel_for_aligned(m, row_cost, kGemmRowAlign, [&](std::int64_t begin, std::int64_t end) {
        gemm_call(ta, tb, end - begin, n, k, a + (ta ? begin : begin * lda), lda, b, ldb, c + begin * ldc, ldc, beta);
    });
}

// The same for packed matrices: each row as long as the matrix is wide.
template <class T>
void gemm(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, const T* a, const T* b, T* c, T beta = 0) {
    gemm(ta, tb, m, n, k, a, ta ? m : k, b, tb ? k : n, c, n, beta);
}

}  // namespace autograd::detail
