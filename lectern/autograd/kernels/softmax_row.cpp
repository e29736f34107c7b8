#include "lectern/autograd/kernels/softmax_row.h"

#include <algorithm>
#include <limits>

#include "lectern/autograd/kernels/eight_way_sum.h"
#include "lectern/autograd/kernels/lanes.h"
#include "lectern/autograd/kernels/vector_math.h"

namespace autograd::detail {
namespace {

// softmax(scale s) = softmax(scale (s - r)), with r the score at which scale s is largest:
// the largest score for scale >= 0, the smallest for scale < 0 (`sign` says which, and the
// max pass reads sign s). That score's term is e^0 = 1 exactly. Written as scale s - max,
// the product may be fused into the subtraction unrounded, and for scores of 1e9 and more
// e^(the product's rounding error) overflows to inf, and the row to NaN.

// A float row of at least eight scores, with no mask and a scale that is not 0 (0 would make
// the -inf padding NaN): every row of the ViT. Its vectors are written out: the general loop
// below leaves the scores past the last whole eight (a ViT row's 17th) to a scalar e^x, a long
// chain of dependent steps, and keeps its lanes in memory. Here the scores past the last whole
// eight are the last eight scores with the ones before them set to -inf, so they too are one
// vector, and their e^x adds 0 to those lanes' sums.
void unmasked_row(const float* __restrict__ s, float* __restrict__ p, std::int64_t len, float scale) {
    using V = Lanes<float>;
    using I = Lanes<std::int32_t>;
    constexpr float minus_inf = -std::numeric_limits<float>::infinity();
    const float sign = scale < 0 ? -1.0f : 1.0f;
    const std::int64_t whole = len / kLanes * kLanes, rest = len - whole;
    const I lane{0, 1, 2, 3, 4, 5, 6, 7};
    const I past_whole = lane >= static_cast<std::int32_t>(kLanes - rest);
    const V tail = past_whole ? load_lanes(s + len - kLanes) : V{} + sign * minus_inf;

    V maxes = sign * tail;
    for (std::int64_t j = 0; j < whole; j += kLanes) {
        const V x = sign * load_lanes(s + j);
        maxes = x > maxes ? x : maxes;
    }
    const float max_s = max_lanes(maxes);
    if (max_s == minus_inf) {  // every scaled score -inf
        std::fill(p, p + len, 0.0f);
        return;
    }
    const float r = sign * max_s;
    const V e_tail = exp_f32_lanes(scale * (tail - r));
    V sums = e_tail;
    for (std::int64_t j = 0; j < whole; j += kLanes) {
        const V e = exp_f32_lanes(scale * (load_lanes(s + j) - r));
        store_lanes(p + j, e);
        sums += e;
    }
    const float inv = 1 / sum_lanes(sums);
    for (std::int64_t j = 0; j < whole; j += kLanes) store_lanes(p + j, load_lanes(p + j) * inv);
    const V p_tail = e_tail * inv;
    for (std::int64_t i = 0; i < rest; ++i) p[whole + i] = p_tail[kLanes - rest + i];
}

// Any row: a mask, a flag per score, or fewer than eight scores.
void masked_row(const float* __restrict__ s, float* __restrict__ p, std::int64_t len, const std::int64_t* keep,
                std::int64_t keep_step, float scale) {
    constexpr float minus_inf = -std::numeric_limits<float>::infinity();
    const float sign = scale < 0 ? -1.0f : 1.0f;
    auto kept = [&](std::int64_t j) { return keep[j * keep_step] != 0; };
    // No mask, or one flag for the row that keeps it: then no test per key.
    const bool keep_all = keep == nullptr || (keep_step == 0 && kept(0));
    const float max_s =
        keep_all
            ? eight_way_max<float>(len, minus_inf, [&](std::int64_t j) { return sign * s[j]; })
            : eight_way_max<float>(len, minus_inf, [&](std::int64_t j) { return kept(j) ? sign * s[j] : minus_inf; });
    if (max_s == minus_inf) {  // every key masked
        for (std::int64_t j = 0; j < len; ++j) p[j] = 0;
        return;
    }
    const float r = sign * max_s;
    // e^(scale (s - r)) into p and their sum in one pass (a row is often shorter than three
    // vectors, so each pass's tail costs as much as its vectors).
    const float total =
        keep_all ? eight_way_sum<float>(len, [&](std::int64_t j) { return p[j] = exp_f32(scale * (s[j] - r)); })
                 : eight_way_sum<float>(len, [&](std::int64_t j) {
                       return p[j] = kept(j) ? exp_f32(scale * (s[j] - r)) : 0.0f;
                   });
    const float inv = 1 / total;
    for (std::int64_t j = 0; j < len; ++j) p[j] *= inv;
}

}  // namespace

void softmax_row_unmasked(const float* s, float* p, std::int64_t len, const std::int64_t*, std::int64_t, float scale) {
    unmasked_row(s, p, len, scale);
}
void masked_softmax_row(const float* s, float* p, std::int64_t len, const std::int64_t* keep, std::int64_t keep_step,
                        float scale) {
    masked_row(s, p, len, keep, keep_step, scale);
}
void masked_softmax_row_backward(const float* __restrict__ dp, const float* __restrict__ p, float* __restrict__ ds,
                                 std::int64_t len, float scale) {
    const float sum_dp_p = eight_way_sum<float>(len, [&](std::int64_t j) { return dp[j] * p[j]; });
    for (std::int64_t j = 0; j < len; ++j) ds[j] = scale * p[j] * (dp[j] - sum_dp_p);
}

}  // namespace autograd::detail
