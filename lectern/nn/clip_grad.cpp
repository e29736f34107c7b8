#include "lectern/nn/clip_grad.h"

#include <cmath>

#include <fmt/format.h>

namespace nn {

using namespace autograd;

double clip_grad_norm_(const std::vector<Tensor>& params, double max_norm) {
    if (!(max_norm > 0)) throw ValueError(fmt::format("clip_grad_norm_: max_norm {} must be positive", max_norm));
    double total = 0;
    for (const Tensor& p : params) {
        Tensor g = p.grad();
        if (g.defined()) total += squared_norm(g);
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

void clip_grad_value_(const std::vector<Tensor>& params, double clip_value) {
    if (!(clip_value >= 0)) throw ValueError(fmt::format("clip_grad_value_: clip_value {} must be >= 0", clip_value));
    NoGradGuard no_grad;
    for (const Tensor& p : params) {
        Tensor g = p.grad();
        if (g.defined()) g.copy_(clamp(g, -clip_value, clip_value));
    }
}

}  // namespace nn
