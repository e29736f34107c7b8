#include "nn/linear.h"

#include <cmath>

#include <fmt/format.h>

#include "nn/init.h"

namespace nn {

Linear::Linear(std::int64_t in, std::int64_t out, bool with_bias, autograd::Generator& gen) {
    if (in <= 0 || out <= 0) throw autograd::ValueError(fmt::format("Linear: sizes must be positive, got {} -> {}", in, out));
    double bound = 1 / std::sqrt(static_cast<double>(in));
    weight = register_parameter("weight", autograd::zeros({out, in}));
    init::uniform_(weight, -bound, bound, gen);
    if (with_bias) {
        bias = register_parameter("bias", autograd::zeros({out}));
        init::uniform_(bias, -bound, bound, gen);
    }
}

// [..., in] -> [..., out]
Tensor Linear::forward(const Tensor& x) const {
    autograd::check_defined("Linear", x);
    if (x.dim() < 1 || x.size(-1) != weight.size(1))
        throw autograd::ShapeError(fmt::format("Linear: input {} does not end in in_features = {}",
                                               autograd::shape_str(x.shape()), weight.size(1)));
    Tensor y = autograd::matmul(x.dim() == 1 ? x.unsqueeze(0) : x, weight, false, true);
    if (bias.defined()) y = y + bias;
    return x.dim() == 1 ? y.squeeze(0) : y;
}

}  // namespace nn
