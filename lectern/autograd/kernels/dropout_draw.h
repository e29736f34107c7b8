#pragma once
// Inverted dropout's factor for each element, shared by dropout (dropout.cpp) and the
// dropout on attention's weights inside multi_head_attention (attention.cpp and
// attention_head.cpp). Internal to autograd.
//   factor = keep / (1 - p),  keep ~ Bernoulli(1 - p)
// Element i is kept when the i-th number of a stream keyed by one draw of the generator,
// read as a uniform in [0, 1) of 32 bits, is below 1 - p. Any element can be drawn
// alone, so a loop over them is split over the threads with the same result.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "lectern/autograd/random.h"

namespace autograd::detail {

struct DropoutDraw {
    std::uint64_t key;         // one draw of the generator per call
    std::uint32_t keep_below;  // (1 - p) 2^32 rounded up; at most 2^32 - 1 (for p under 2^-32,
                               // a drop chance of 2^-32), so the test is a 32-bit compare
    double kept;               // 1 / (1 - p)

    DropoutDraw(double p, std::uint64_t key_)
        : key(key_),
          keep_below(static_cast<std::uint32_t>(std::min(std::ceil(std::ldexp(1 - p, 32)), std::ldexp(1.0, 32) - 1))),
          kept(1 / (1 - p)) {}
};

// Element i's factor, 0 or 1 / (1 - p). The loops calling it pass the draw's members as
// locals: a member read on one side of a select would be a masked load, and GCC would
// not vectorise the loop; for the same reason the factor is a product, not a select.
template <class T>
inline T dropout_factor(std::uint64_t key, std::uint32_t keep_below, T kept, std::int64_t i) {
    return static_cast<T>(stream_u32(key, static_cast<std::uint64_t>(i)) < keep_below) * kept;
}

// out[j] = in[j] times the factor of element first + j; in may be out.
template <class T>
void apply_dropout(const DropoutDraw& draw, const T* in, T* out, std::int64_t n, std::int64_t first) {
    const std::uint64_t key = draw.key;
    const std::uint32_t keep_below = draw.keep_below;
    const T kept = static_cast<T>(draw.kept);
    for (std::int64_t j = 0; j < n; ++j) out[j] = in[j] * dropout_factor(key, keep_below, kept, first + j);
}

}  // namespace autograd::detail
