#include "autograd/ops/dropout.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "autograd/checks.h"
#include "autograd/graph.h"
#include "autograd/ops/arithmetic.h"

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
    // keep is gen.uniform() < 1 - p, tested on the uniform's 53 integer bits (exactly the same test).
    // The draws are serial, in the generator's order, and stored as bytes so that loop has no
    // branch to mispredict; the arithmetic then runs vectorised, split over the threads.
    const auto keep_below = static_cast<std::uint64_t>(std::ceil(std::ldexp(1 - p, 53)));
    const std::int64_t n = x.numel();
    std::vector<std::uint8_t> keep(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) keep[i] = (gen.next_u64() >> 11) < keep_below;
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T kept = static_cast<T>(1 / (1 - p));
        const std::uint8_t* __restrict__ pk = keep.data();
        const T* __restrict__ px = x.data<T>();
        T* __restrict__ scale = out.scale.data<T>();
        T* __restrict__ y = out.y.data<T>();
        for (std::int64_t i = 0; i < n; ++i) {
            scale[i] = pk[i] ? kept : T(0);
            y[i] = px[i] * scale[i];
        }
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
