#include "nn/gelu_tanh.h"

#include <cmath>
#include <numbers>

namespace nn {

autograd::Tensor gelu_tanh(const autograd::Tensor& x) {
    using autograd::Tensor;
    const double c = std::sqrt(2.0 / std::numbers::pi);
    Tensor inner = (x + autograd::pow(x, 3.0) * 0.044715) * c;
    return x * 0.5 * (autograd::tanh(inner) + 1.0);
}

}  // namespace nn
