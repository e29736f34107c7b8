#include "nn/layer_norm.h"

namespace nn {

LayerNorm::LayerNorm(std::int64_t d, double eps_) : eps(eps_) {
    gamma = register_parameter("gamma", autograd::ones({d}));
    beta = register_parameter("beta", autograd::zeros({d}));
}

Tensor LayerNorm::forward(const Tensor& x) const { return autograd::layer_norm(x, gamma, beta, eps); }

}  // namespace nn
