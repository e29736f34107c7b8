#pragma once
// Layer normalization of one row and its backward: the plain reference (003 "Layer
// normalization"). float64 runs it; kernels/layer_norm_row.h is its float32 twin, tested
// equal in tests/autograd/test_fast_equals_reference.cpp.
//   a: one row of D features; gamma, beta: [D]
//   mu = mean(a),  v = mean((a - mu)^2) (biased),  rstd = 1 / sqrt(v + eps)
//   a_hat = (a - mu) rstd,  s = gamma a_hat + beta
// Backward, with g = ds gamma:
//   da = rstd (g - mean(g) - a_hat mean(g a_hat))
//   dgamma += ds a_hat,  dbeta += ds   (summed over the rows)
#include <cmath>
#include <cstdint>

namespace autograd::reference {

// Writes a_hat and s; returns rstd.
template <class T>
T layer_norm_row(const T* a, const T* gamma, const T* beta, T eps, std::int64_t D, T* a_hat, T* s) {
    T mu = 0;
    for (std::int64_t j = 0; j < D; ++j) mu += a[j];
    mu /= static_cast<T>(D);
    T v = 0;
    for (std::int64_t j = 0; j < D; ++j) v += (a[j] - mu) * (a[j] - mu);
    v /= static_cast<T>(D);
    const T rstd = 1 / std::sqrt(v + eps);
    for (std::int64_t j = 0; j < D; ++j) {
        a_hat[j] = (a[j] - mu) * rstd;
        s[j] = gamma[j] * a_hat[j] + beta[j];
    }
    return rstd;
}

// Writes da; adds this row's terms to dgamma and dbeta.
template <class T>
void layer_norm_row_backward(const T* ds, const T* a_hat, const T* gamma, T rstd, std::int64_t D, T* da, T* dgamma,
                             T* dbeta) {
    T mean_g = 0, mean_g_a_hat = 0;
    for (std::int64_t j = 0; j < D; ++j) {
        mean_g += ds[j] * gamma[j];
        mean_g_a_hat += ds[j] * gamma[j] * a_hat[j];
    }
    mean_g /= static_cast<T>(D);
    mean_g_a_hat /= static_cast<T>(D);
    for (std::int64_t j = 0; j < D; ++j) {
        da[j] = rstd * (ds[j] * gamma[j] - mean_g - a_hat[j] * mean_g_a_hat);
        dgamma[j] += ds[j] * a_hat[j];
        dbeta[j] += ds[j];
    }
}

}  // namespace autograd::reference
