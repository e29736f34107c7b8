#pragma once
// Lectern's own matrix product: the portable build's (meson -Dblas=disabled) GEMM,
// which gemm.h's calls run there instead of OpenBLAS's (kernels/gemm_backend_portable.cpp).
// The default build compiles it only into benchmarks/bench_gemm, to time it beside OpenBLAS.
// It computes reference::gemm (reference/gemm.h), tested equal in tests/autograd/test_gemm.cpp;
// gemm_portable.cpp says how it is blocked for the caches and the registers. Internal to autograd.
#include <cstdint>

namespace autograd::detail {

// C[m, n] = op(A) op(B) + beta C, beta 0 or 1, for row-major A, B, C whose rows are lda, ldb
// and ldc apart; op(X) is X^T when its flag is set. beta 0 never reads C. Runs on the calling
// thread. Each element of C is summed over k in one order set by k alone, so C's rows may
// be split between calls (threads) in any way and give the same bits.
template <class T>
void portable_gemm(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, const T* a, std::int64_t lda,
                   const T* b, std::int64_t ldb, T* c, std::int64_t ldc, T beta);
}  // namespace autograd::detail
