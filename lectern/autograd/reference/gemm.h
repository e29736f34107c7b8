#pragma once
// The matrix product as its definition, one element at a time: the plain reference for
// kernels/gemm_portable.h, tested equal in tests/autograd/test_gemm.cpp.
//   op(A) [m, k], op(B) [k, n], C [m, n], all row-major; op(X) is X, or X^T when its flag is set
//   C[i][j] = sum over p < k of op(A)[i][p] op(B)[p][j]  (+ C[i][j] when beta is 1)
// A's rows are lda apart (of A as stored: op(A)'s columns when ta), B's ldb, C's ldc.
// beta 0 writes C without reading it; beta 1 adds to it.
#include <cstdint>

namespace autograd::reference {

template <class T>
void gemm(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, const T* a, std::int64_t lda, const T* b,
          std::int64_t ldb, T* c, std::int64_t ldc, T beta) {
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
            T sum = 0;
            for (std::int64_t p = 0; p < k; ++p)
                sum += (ta ? a[p * lda + i] : a[i * lda + p]) * (tb ? b[j * ldb + p] : b[p * ldb + j]);
            T& cij = c[i * ldc + j];
            cij = beta == T(0) ? sum : cij + sum;
        }
}

}  // namespace autograd::reference
