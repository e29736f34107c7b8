#pragma once
// Attention's masked softmax on one row of scores, and its backward: the plain reference
// (002 "The Weighting Coefficients P" and "causal masking"; 001's masked_fill(mask == 0, -1e9)
// before the softmax). float64 runs it; kernels/softmax_row.h is its float32 twin, tested
// equal in tests/autograd/test_fast_equals_reference.cpp.
//   len: the row's number of keys; keep[j keep_step] == 0 masks key j (keep null: none)
//   P_j = softmax(M + scale S)_j,  M_j = -inf where masked, else 0
//   dS_j = scale P_j (dP_j - sum_k dP_k P_k)
// A row whose every key is masked (or at -inf, +inf for scale < 0) gives P = 0, not NaN.
#include <cmath>
#include <cstdint>
#include <limits>

namespace autograd::reference {

template <class T>
void masked_softmax_row(const T* s, T* p, std::int64_t len, const std::int64_t* keep, std::int64_t keep_step, T scale) {
    auto kept = [&](std::int64_t j) { return keep == nullptr || keep[j * keep_step] != 0; };
    // r: the kept score at which scale s is largest (the largest score for scale >= 0, the
    // smallest for scale < 0), so that its term is e^0 = 1 exactly.
    const T sign = scale < 0 ? T(-1) : T(1);
    std::int64_t top = -1;
    for (std::int64_t j = 0; j < len; ++j)
        if (kept(j) && (top < 0 || sign * s[j] > sign * s[top])) top = j;
    if (top < 0 || sign * s[top] == -std::numeric_limits<T>::infinity()) {  // every key masked or at -inf
        for (std::int64_t j = 0; j < len; ++j) p[j] = 0;
        return;
    }
    const T r = s[top];
    T total = 0;
    for (std::int64_t j = 0; j < len; ++j) {
        p[j] = kept(j) ? std::exp(scale * (s[j] - r)) : T(0);
        total += p[j];
    }
    for (std::int64_t j = 0; j < len; ++j) p[j] /= total;
}

template <class T>
void masked_softmax_row_backward(const T* dp, const T* p, T* ds, std::int64_t len, T scale) {
    T sum_dp_p = 0;
    for (std::int64_t j = 0; j < len; ++j) sum_dp_p += dp[j] * p[j];
    for (std::int64_t j = 0; j < len; ++j) ds[j] = scale * p[j] * (dp[j] - sum_dp_p);
}

}  // namespace autograd::reference
