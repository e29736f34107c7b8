#include "autograd/ops/dropout.h"

#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "autograd/checks.h"
#include "autograd/graph.h"
#include "autograd/ops/arithmetic.h"
#include "autograd/parallel.h"

namespace autograd {
namespace {

// Inverted dropout: each element is kept with probability 1 - p and scaled up, so
// evaluation needs no rescaling:
//   y = x * scale,  scale = keep / (1 - p),  keep ~ Bernoulli(1 - p);   dx = dy * scale

struct DropoutForward {
    Tensor y;
    Tensor scale;  // 0 or 1 / (1 - p) per element, drawn from gen
};

DropoutForward dropout_forward(const Tensor& x, double p, Generator& gen) {
    DropoutForward out{Tensor::empty(x.shape(), x.dtype()), Tensor::empty(x.shape(), x.dtype())};
    // Element i is kept when the i-th number of a stream keyed by one draw of gen, read as a
    // uniform in [0, 1) of 32 bits, is below 1 - p. Any element can be drawn alone, so the loop
    // is split over the threads with the same result.
    const auto keep_below = static_cast<std::int64_t>(std::ceil(std::ldexp(1 - p, 32)));
    const std::uint64_t key = gen.next_u64();
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T kept = static_cast<T>(1 / (1 - p));
        const T* __restrict__ px = x.data<T>();
        T* __restrict__ scale = out.scale.data<T>();
        T* __restrict__ y = out.y.data<T>();
        // scale is kept times 0 or 1, not a select: read on one side of a select only, `kept`
        // would be a masked load, and GCC would not vectorise the loop.
        parallel_for(x.numel(), 4, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) {
                const auto u = static_cast<std::int64_t>(stream_u32(key, static_cast<std::uint64_t>(i)));
                scale[i] = static_cast<T>(u < keep_below) * kept;
                y[i] = px[i] * scale[i];
            }
        });
    });
    return out;
}

}  // namespace

Tensor dropout(const Tensor& x, double p, bool training, Generator& gen) {
    check_floating("dropout", x);
    if (!(p >= 0 && p < 1)) throw ValueError(fmt::format("dropout: probability {} is outside [0, 1)", p));
    if (!training || p == 0) return x;
    DropoutForward f = dropout_forward(x, p, gen);
    return record("dropout", {x}, f.y, [scale = f.scale](const Tensor& dy) { return std::vector{dy * scale}; });
}

}  // namespace autograd
