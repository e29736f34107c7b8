#include "nn/clip_grad.h"

#include <cmath>

#include <fmt/format.h>

namespace nn {

using namespace autograd;

double clip_grad_norm_(const std::vector<Tensor>& params, double max_norm) {
    if (!(max_norm > 0)) throw ValueError(fmt::format("clip_grad_norm_: max_norm {} must be positive", max_norm));
    double total = 0;
    for (const Tensor& p : params) {
        Tensor g = p.grad();
        if (!g.defined()) continue;
        dispatch_floating(g.dtype(), [&](auto zero) {
            using T = decltype(zero);
            const T* d = g.data<T>();
            for (std::int64_t i = 0, n = g.numel(); i < n; ++i) total += static_cast<double>(d[i]) * d[i];
        });
    }
    double norm = std::sqrt(total);
    double scale = max_norm / (norm + 1e-6);
    if (scale < 1) {
        NoGradGuard no_grad;
        for (const Tensor& p : params)
            if (p.grad().defined()) p.grad().mul_(scale);
    }
    return norm;
}

}  // namespace nn
