#pragma once
// Scaled dot-product attention of one head, forward beside backward: the plain reference
// (001 "Scaled Dot-Product Attention"; 004 §15.5.1 eq. 15.54 and §15.5.2 eq. 15.55-15.56).
// float64 runs it; kernels/attention_head.h is its float32 twin, tested equal in
// tests/autograd/test_fast_equals_reference.cpp.
//   Q [Tq, d_k], K [Tk, d_k], V [Tk, d_v], Z [Tq, d_v]: one head's columns (matrix_view.h)
//   P [Tq, Tk], packed; f(e): dropout's factor of P's element e (0 or 1 / (1 - p); 1 without)
//   S = Q K^T,  P = softmax(M + scale S),  P~ = P f,  Z = P~ V   (scale = 1 / sqrt(d_k); 1 unscaled)
// Backward:
//   dV = P~^T dZ,  dP = (dZ V^T) f,  dS = scale P (dP - sum(dP P)),  dQ = dS K,  dK = dS^T Q
#include <cstdint>
#include <vector>

#include "lectern/autograd/matrix_view.h"
#include "lectern/autograd/reference/head_products.h"
#include "lectern/autograd/reference/softmax_row.h"

namespace autograd::reference {

template <class T, class Factor>
void attention_head(MatrixView<const T> Q, MatrixView<const T> K, MatrixView<const T> V, const MaskRows& mask, T scale,
                    Factor f, MatrixView<T> Z, MatrixView<T> P) {
    const std::int64_t Tq = Q.rows, Tk = K.rows;
    std::vector<T> s(Tq * Tk), p_dropped(Tq * Tk);
    MatrixView<T> S = packed_view(s.data(), Tq, Tk), Pd = packed_view(p_dropped.data(), Tq, Tk);
    product_abt(Q, K, S);  // S = Q K^T
    for (std::int64_t i = 0; i < Tq; ++i)
        masked_softmax_row(S.row(i), P.row(i), Tk, mask.row(i), mask.col_step, scale);  // P = softmax(M + scale S)
    for (std::int64_t e = 0; e < Tq * Tk; ++e) p_dropped[e] = P.data[e] * f(e);         // P~ = P f
    product_ab<T>(Pd, V, Z);                                                            // Z = P~ V
}

// Writes each of dQ, dK and dV whose data is not null.
template <class T, class Factor>
void attention_head_backward(MatrixView<const T> dZ, MatrixView<const T> Q, MatrixView<const T> K,
                             MatrixView<const T> V, MatrixView<const T> P, T scale, Factor f, MatrixView<T> dQ,
                             MatrixView<T> dK, MatrixView<T> dV) {
    const std::int64_t Tq = Q.rows, Tk = K.rows;
    std::vector<T> p_dropped(Tq * Tk), dp(Tq * Tk), ds(Tq * Tk);
    MatrixView<T> Pd = packed_view(p_dropped.data(), Tq, Tk), dP = packed_view(dp.data(), Tq, Tk),
                  dS = packed_view(ds.data(), Tq, Tk);
    for (std::int64_t e = 0; e < Tq * Tk; ++e) p_dropped[e] = P.data[e] * f(e);  // P~ = P f
    if (dV.data) product_atb<T>(Pd, dZ, dV);                                     // dV = P~^T dZ
    product_abt(dZ, V, dP);                                                      // dP~ = dZ V^T
    for (std::int64_t e = 0; e < Tq * Tk; ++e) dp[e] *= f(e);                    // dP = dP~ f
    for (std::int64_t i = 0; i < Tq; ++i)
        masked_softmax_row_backward(dP.row(i), P.row(i), dS.row(i), Tk, scale);  // dS = scale P (dP - sum(dP P))
    if (dQ.data) product_ab<T>(dS, K, dQ);                                       // dQ = dS K
    if (dK.data) product_atb<T>(dS, Q, dK);                                      // dK = dS^T Q
}

}  // namespace autograd::reference
