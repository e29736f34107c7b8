#include "lectern/nn/activation.h"

namespace nn {

Tensor ReLU::forward(const Tensor& x) const { return autograd::relu(x); }
Tensor GELU::forward(const Tensor& x) const { return tanh_approximation ? autograd::gelu_tanh(x) : autograd::gelu(x); }
Tensor Tanh::forward(const Tensor& x) const { return autograd::tanh(x); }
Tensor Sigmoid::forward(const Tensor& x) const { return autograd::sigmoid(x); }
Tensor SiLU::forward(const Tensor& x) const { return autograd::silu(x); }

}  // namespace nn
