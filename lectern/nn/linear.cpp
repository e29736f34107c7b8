#include "lectern/nn/linear.h"

#include <cmath>

#include <fmt/format.h>

#include "lectern/nn/init.h"

namespace nn {

Linear::Linear(std::int64_t in, std::int64_t out, bool with_bias, autograd::Generator& gen) {
    if (in <= 0 || out <= 0)
        throw autograd::ValueError(fmt::format("Linear: sizes must be positive, got {} -> {}", in, out));
    double bound = 1 / std::sqrt(static_cast<double>(in));
    weight = register_parameter("weight", autograd::zeros({out, in}));
    init::uniform_(weight, -bound, bound, gen);
    if (with_bias) {
        bias = register_parameter("bias", autograd::zeros({out}));
        init::uniform_(bias, -bound, bound, gen);
    }
}

// [..., in] -> [..., out]: x W^T + b, one op (autograd/ops/linear.h). A single vector
// [in] -> [out], as PyTorch's F.linear takes it, goes through as the one row [1, in]:
// the op's backward forms dx = dy W as a matrix product of rows.
Tensor Linear::forward(const Tensor& x) const {
    if (x.dim() == 1 && x.size(0) == weight.size(1))  // a wrong width is reported on x's own shape below
        return autograd::reshape(autograd::linear(autograd::reshape(x, {1, x.size(0)}), weight, bias),
                                 {weight.size(0)});
    return autograd::linear(x, weight, bias);
}

}  // namespace nn
