#include "autograd/ops/dropout.h"

#include <fmt/format.h>

#include "autograd/graph.h"

namespace autograd {

// Inverted dropout: y = x * keep / (1 - p), keep ~ Bernoulli(1 - p);
// dx = dy * keep / (1 - p). Identity when !training or p == 0.
Tensor dropout(const Tensor& x, double p, bool training, Generator& gen) {
    check_floating("dropout", x);
    if (!(p >= 0 && p < 1)) throw ValueError(fmt::format("dropout: probability {} is outside [0, 1)", p));
    if (!training || p == 0) return x;
    // The mask holds the factor each element is multiplied by: 0 or 1/(1-p).
    Tensor scale = Tensor::empty(x.shape(), x.dtype());
    Tensor y = Tensor::empty(x.shape(), x.dtype());
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T kept = static_cast<T>(1 / (1 - p));
        const T* px = x.data<T>();
        T* ps = scale.data<T>();
        T* py = y.data<T>();
        for (std::int64_t i = 0, n = x.numel(); i < n; ++i) {
            ps[i] = gen.uniform() < 1 - p ? kept : T(0);
            py[i] = px[i] * ps[i];
        }
    });
    return record("dropout", {x}, y, [scale](const Tensor& dy) {
        Tensor dx = Tensor::empty(dy.shape(), dy.dtype());
        dispatch_floating(dy.dtype(), [&](auto zero) {
            using T = decltype(zero);
            const T* g = dy.data<T>();
            const T* s = scale.data<T>();
            T* q = dx.data<T>();
            for (std::int64_t i = 0, n = dy.numel(); i < n; ++i) q[i] = g[i] * s[i];
        });
        return std::vector{dx};
    });
}

}  // namespace autograd
