#include "autograd/ops/softmax_row.h"

#include <limits>

#include "autograd/ops/lane_sum.h"
#include "autograd/ops/vector_math.h"

namespace autograd::detail {
namespace {

template <class T>
void masked_softmax_row_impl(const T* __restrict__ s, T* __restrict__ p, std::int64_t len, const std::int64_t* keep,
                             std::int64_t keep_step, T scale) {
    constexpr T minus_inf = -std::numeric_limits<T>::infinity();
    auto kept = [&](std::int64_t j) { return keep[j * keep_step] != 0; };
    // No mask (the ViT's), or one flag for the row that keeps it: then no test per key.
    const bool keep_all = keep == nullptr || (keep_step == 0 && kept(0));
    const T max_s = keep_all ? lane_max<T>(len, minus_inf, [&](std::int64_t j) { return scale * s[j]; })
                             : lane_max<T>(len, minus_inf, [&](std::int64_t j) {
                                   return kept(j) ? scale * s[j] : minus_inf;
                               });
    if (max_s == minus_inf) {  // every key masked
        for (std::int64_t j = 0; j < len; ++j) p[j] = 0;
        return;
    }
    // e^(scale s - max) into p and their sum in one pass (a row is often shorter than three vectors,
    // so each pass's tail costs as much as its vectors).
    const T total = keep_all ? lane_sum<T>(len, [&](std::int64_t j) { return p[j] = exp_vec(scale * s[j] - max_s); })
                             : lane_sum<T>(len, [&](std::int64_t j) {
                                   return p[j] = kept(j) ? exp_vec(scale * s[j] - max_s) : T(0);
                               });
    const T inv = 1 / total;
    for (std::int64_t j = 0; j < len; ++j) p[j] *= inv;
}

template <class T>
void masked_softmax_backward_row_impl(const T* __restrict__ dp, const T* __restrict__ p, T* __restrict__ ds,
                                      std::int64_t len, T scale) {
    const T sum_dp_p = lane_sum<T>(len, [&](std::int64_t j) { return dp[j] * p[j]; });
    for (std::int64_t j = 0; j < len; ++j) ds[j] = scale * p[j] * (dp[j] - sum_dp_p);
}

}  // namespace

void masked_softmax_row(const float* s, float* p, std::int64_t len, const std::int64_t* keep, std::int64_t keep_step,
                        float scale) {
    masked_softmax_row_impl(s, p, len, keep, keep_step, scale);
}
void masked_softmax_row(const double* s, double* p, std::int64_t len, const std::int64_t* keep,
                        std::int64_t keep_step, double scale) {
    masked_softmax_row_impl(s, p, len, keep, keep_step, scale);
}
void masked_softmax_backward_row(const float* dp, const float* p, float* ds, std::int64_t len, float scale) {
    masked_softmax_backward_row_impl(dp, p, ds, len, scale);
}
void masked_softmax_backward_row(const double* dp, const double* p, double* ds, std::int64_t len, double scale) {
    masked_softmax_backward_row_impl(dp, p, ds, len, scale);
}

}  // namespace autograd::detail
