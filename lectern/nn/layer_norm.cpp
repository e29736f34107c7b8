#include "lectern/nn/layer_norm.h"

#include <fmt/format.h>

namespace nn {

using namespace autograd;

LayerNorm::LayerNorm(std::int64_t d, double eps_, LayerNormFormula f) : eps(eps_), formula(f) {
    if (d < 1 || (f == LayerNormFormula::annotated && d < 2))
        throw ValueError(fmt::format("LayerNorm: width {} is too small (001's unbiased deviation needs 2)", d));
    if (!(eps_ >= 0)) throw ValueError(fmt::format("LayerNorm: eps {} must be >= 0", eps_));
    gamma = register_parameter("gamma", ones({d}));
    beta = register_parameter("beta", zeros({d}));
}

LayerNorm::LayerNorm(std::int64_t d, LayerNormFormula f, std::optional<double> eps)
    : LayerNorm(d, eps.value_or(f == LayerNormFormula::annotated ? 1e-6 : 1e-5), f) {}

Tensor LayerNorm::forward(const Tensor& x) const {
    if (formula == LayerNormFormula::standard) return layer_norm(x, gamma, beta, eps);
    // 001: a_2 * (x - mean) / (std + eps) + b_2, std unbiased.
    check_floating("LayerNorm", x);
    if (x.dim() < 1 || x.size(-1) != gamma.size(0))
        throw ShapeError(fmt::format("LayerNorm: input {} must end in {}", shape_str(x.shape()), gamma.size(0)));
    const auto d = static_cast<double>(x.size(-1));
    Tensor centred = x - mean(x, -1, true);
    Tensor sigma = sqrt(sum(centred * centred, -1, true) / (d - 1));
    return gamma * centred / (sigma + eps) + beta;
}

}  // namespace nn
