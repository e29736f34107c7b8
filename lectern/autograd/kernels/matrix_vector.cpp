#include "lectern/autograd/kernels/matrix_vector.h"

#include "lectern/autograd/kernels/lanes.h"

namespace autograd::detail {
namespace {

// The tail of one row's sum and its bias, in the order matrix_vector.h gives.
inline float finish_row(Lanes<float> acc, const float* w, const float* x, std::int64_t n8, std::int64_t n,
                        const float* b, std::int64_t j) {
    float s = sum_lanes(acc);
    for (std::int64_t i = n8; i < n; ++i) s += w[i] * x[i];
    return b ? b[j] + s : s;
}

// Rows j .. j + R, each with its own eight lane sums. While it reads them it asks for the
// line of each of the next R rows in the same columns (`ahead` false on the last group), so
// that those rows are on their way before the loop reaches them.
template <int R>
inline void rows_product(std::int64_t j, std::int64_t n, const float* w, const float* x, const float* b, float* y,
                         bool ahead) {
    constexpr std::int64_t kLine = 64 / sizeof(float);
    const std::int64_t n8 = n / kLanes * kLanes;
    const float* wj = w + j * n;
    Lanes<float> acc[R] = {};
    for (std::int64_t i = 0; i < n8; i += kLanes) {
        if (ahead && i % kLine == 0)
#pragma GCC unroll 8
            for (int r = 0; r < R; ++r) __builtin_prefetch(wj + (R + r) * n + i);
        const Lanes<float> xi = load_lanes(x + i);
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) acc[r] += load_lanes(wj + r * n + i) * xi;
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) y[j + r] = finish_row(acc[r], wj + r * n, x, n8, n, b, j + r);
}

}  // namespace

void matrix_vector(std::int64_t m, std::int64_t n, const float* w, const float* x, const float* b, float* y) {
    constexpr int R = 4;
    std::int64_t j = 0;
    for (; j + R <= m; j += R) rows_product<R>(j, n, w, x, b, y, j + 2 * R <= m);
    for (; j < m; ++j) rows_product<1>(j, n, w, x, b, y, false);
}

}  // namespace autograd::detail
