#include "lectern/autograd/kernels/matrix_vector.h"

#include "lectern/autograd/kernels/lanes.h"

namespace autograd::detail {
namespace {

// How far ahead of its reading the kernel asks for W's lines, and into which cache: 32 KiB, into
// L2. The hardware prefetcher alone keeps too few lines in flight for one core to read at the
// memory's pace; L2 holds more outstanding requests than L1 does.
constexpr std::int64_t kAheadFloats = (32 << 10) / sizeof(float);
constexpr int kIntoL2 = 2;  // __builtin_prefetch's locality: prefetcht1
constexpr std::int64_t kLine = 64 / sizeof(float);

// Rows j .. j + R of W, each with its own eight lane sums, in the order matrix_vector.h gives.
// Each line read has the line kAheadFloats further on asked for, short of W's `size` floats.
template <int R>
inline void rows_product(std::int64_t j, std::int64_t n, const float* w, std::int64_t size, const float* x,
                         const float* b, float* y) {
    const std::int64_t n8 = n / kLanes * kLanes;
    const float* wj = w + j * n;
    Lanes<float> acc[R] = {};
    for (std::int64_t i = 0; i < n8; i += kLanes) {
        if (i % kLine == 0)
#pragma GCC unroll 4
            for (int r = 0; r < R; ++r)
                if (const std::int64_t ahead = (j + r) * n + i + kAheadFloats; ahead < size)
                    __builtin_prefetch(w + ahead, 0, kIntoL2);
        const Lanes<float> xi = load_lanes(x + i);
#pragma GCC unroll 4
        for (int r = 0; r < R; ++r) acc[r] += load_lanes(wj + r * n + i) * xi;
    }
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
        const float* wr = wj + r * n;
        float s = sum_lanes(acc[r]);
        for (std::int64_t i = n8; i < n; ++i) s += wr[i] * x[i];
        y[j + r] = b ? b[j + r] + s : s;
    }
}

}  // namespace

void matrix_vector(std::int64_t m, std::int64_t n, const float* w, const float* x, const float* b, float* y) {
    std::int64_t j = 0;
    for (; j + 2 <= m; j += 2) rows_product<2>(j, n, w, m * n, x, b, y);
    if (j < m) rows_product<1>(j, n, w, m * n, x, b, y);
}

}  // namespace autograd::detail
