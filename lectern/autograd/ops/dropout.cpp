#include "lectern/autograd/ops/dropout.h"

#include <cstdint>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/ops/arithmetic.h"
#include "lectern/autograd/kernels/dropout_draw.h"
#include "lectern/autograd/parallel.h"

namespace autograd {
namespace {

// Inverted dropout: each element is kept with probability 1 - p and scaled up, so
// evaluation needs no rescaling:
//   y = x f,  f = keep / (1 - p),  keep ~ Bernoulli(1 - p);   dx = dy f

struct DropoutForward {
    Tensor y;
    Tensor factors;  // f per element, kept for the backward
};

DropoutForward dropout_forward(const Tensor& x, const detail::DropoutDraw& draw) {
    DropoutForward out{Tensor::empty(x.shape(), x.dtype()), Tensor::empty(x.shape(), x.dtype())};
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const std::uint64_t key = draw.key;
        const std::uint32_t keep_below = draw.keep_below;
        const T kept = static_cast<T>(draw.kept);
        const T* __restrict__ px = x.data<T>();
        T* __restrict__ f = out.factors.data<T>();
        T* __restrict__ y = out.y.data<T>();
        parallel_for(x.numel(), 4, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) {
                f[i] = detail::dropout_factor(key, keep_below, kept, i);
                y[i] = px[i] * f[i];
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
    DropoutForward f = dropout_forward(x, detail::DropoutDraw(p, gen.next_u64()));
    return record("dropout", {x}, f.y, [factors = f.factors](const Tensor& dy) { return std::vector{dy * factors}; });
}

}  // namespace autograd
