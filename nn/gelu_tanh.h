#pragma once
#include "autograd/autograd.h"

namespace nn {

// GELU by its tanh approximation, the one GPT-2 was trained with (Hendrycks &
// Gimpel 2016, eq. of section 2; PyTorch's gelu(approximate="tanh")):
//   GELU(x) ~ 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
// Composed of autograd's ops, so its backward is theirs; differs from the exact
// x Phi(x) (autograd::gelu) by at most about 5e-4.
autograd::Tensor gelu_tanh(const autograd::Tensor& x);

}  // namespace nn
