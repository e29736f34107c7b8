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

// [..., in] -> [..., out]: x W^T + b, one op (autograd/ops/linear.h)
Tensor Linear::forward(const Tensor& x) const { return autograd::linear(x, weight, bias); }

}  // namespace nn
