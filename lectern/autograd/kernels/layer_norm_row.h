#pragma once
// Layer norm's rows for float32: each computes reference::layer_norm_row or
// reference::layer_norm_row_backward (reference/layer_norm.h, the equations); tested equal in
// tests/autograd/test_fast_equals_reference.cpp. Internal to autograd.
// A row whose length is whole vectors has its vectors written out (lanes.h): in the plain
// loops GCC keeps eight_way_sum's eight running sums in memory, and each row waits on them. Any
// other length sums with eight_way_sum. Both send term j to running sum j mod 8 and combine
// the eight in eight_way_sum's pairwise order.
#include <cmath>
#include <cstdint>

#include "lectern/autograd/kernels/eight_way_sum.h"
#include "lectern/autograd/kernels/lanes.h"

namespace autograd::detail {

// D a multiple of kLanes.
inline float layer_norm_row_lanes(const float* __restrict__ a, const float* __restrict__ gamma,
                                  const float* __restrict__ beta, float eps, std::int64_t D, float* __restrict__ a_hat,
                                  float* __restrict__ s) {
    using V = Lanes<float>;
    V sum{};
    for (std::int64_t j = 0; j < D; j += kLanes) sum += load_lanes(a + j);
    const float mu = sum_lanes(sum) / static_cast<float>(D);
    V squares{};
    for (std::int64_t j = 0; j < D; j += kLanes) {
        const V d = load_lanes(a + j) - mu;
        squares += d * d;
    }
    const float rstd = 1 / std::sqrt(sum_lanes(squares) / static_cast<float>(D) + eps);
    for (std::int64_t j = 0; j < D; j += kLanes) {
        const V h = (load_lanes(a + j) - mu) * rstd;
        store_lanes(a_hat + j, h);
        store_lanes(s + j, load_lanes(gamma + j) * h + load_lanes(beta + j));
    }
    return rstd;
}

inline float layer_norm_row_sums(const float* __restrict__ a, const float* __restrict__ gamma,
                                 const float* __restrict__ beta, float eps, std::int64_t D, float* __restrict__ a_hat,
                                 float* __restrict__ s) {
    const float mu = eight_way_sum<float>(D, [&](std::int64_t j) { return a[j]; }) / static_cast<float>(D);
    const float v =
        eight_way_sum<float>(D, [&](std::int64_t j) { return (a[j] - mu) * (a[j] - mu); }) / static_cast<float>(D);
    const float rstd = 1 / std::sqrt(v + eps);
    for (std::int64_t j = 0; j < D; ++j) {
        a_hat[j] = (a[j] - mu) * rstd;
        s[j] = gamma[j] * a_hat[j] + beta[j];
    }
    return rstd;
}

// dgamma += ds a_hat and dbeta += ds over one row; __restrict__ so that each add need not
// wait on the last row's stores.
inline void add_row_to_param_grads(const float* __restrict__ ds, const float* __restrict__ a_hat,
                                   float* __restrict__ dgamma, float* __restrict__ dbeta, std::int64_t D) {
    for (std::int64_t j = 0; j < D; ++j) {
        dgamma[j] += ds[j] * a_hat[j];
        dbeta[j] += ds[j];
    }
}

// D a multiple of kLanes.
inline void layer_norm_row_backward_lanes(const float* __restrict__ ds, const float* __restrict__ a_hat,
                                          const float* __restrict__ gamma, float rstd, std::int64_t D,
                                          float* __restrict__ da, float* dgamma, float* dbeta) {
    using V = Lanes<float>;
    add_row_to_param_grads(ds, a_hat, dgamma, dbeta, D);
    V sum_g{}, sum_g_a_hat{};
    for (std::int64_t j = 0; j < D; j += kLanes) {
        const V g = load_lanes(ds + j) * load_lanes(gamma + j);
        sum_g += g;
        sum_g_a_hat += g * load_lanes(a_hat + j);
    }
    const float mean_g = sum_lanes(sum_g) / static_cast<float>(D);
    const float mean_g_a_hat = sum_lanes(sum_g_a_hat) / static_cast<float>(D);
    for (std::int64_t j = 0; j < D; j += kLanes)
        store_lanes(da + j, rstd * (load_lanes(ds + j) * load_lanes(gamma + j) - mean_g -
                                    load_lanes(a_hat + j) * mean_g_a_hat));
}

inline void layer_norm_row_backward_sums(const float* __restrict__ ds, const float* __restrict__ a_hat,
                                         const float* __restrict__ gamma, float rstd, std::int64_t D,
                                         float* __restrict__ da, float* dgamma, float* dbeta) {
    add_row_to_param_grads(ds, a_hat, dgamma, dbeta, D);
    const float mean_g =
        eight_way_sum<float>(D, [&](std::int64_t j) { return ds[j] * gamma[j]; }) / static_cast<float>(D);
    const float mean_g_a_hat =
        eight_way_sum<float>(D, [&](std::int64_t j) { return ds[j] * gamma[j] * a_hat[j]; }) / static_cast<float>(D);
    for (std::int64_t j = 0; j < D; ++j) da[j] = rstd * (ds[j] * gamma[j] - mean_g - a_hat[j] * mean_g_a_hat);
}

}  // namespace autograd::detail
