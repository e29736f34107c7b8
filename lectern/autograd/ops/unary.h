#pragma once
// Elementwise functions of one floating tensor, each with its derivative.
#include "lectern/autograd/tensor.h"

namespace autograd {

Tensor exp(const Tensor& x);              // y = e^x;            dx = dy * y
Tensor log(const Tensor& x);              // y = ln x;           dx = dy / x
Tensor sqrt(const Tensor& x);             // y = sqrt x;         dx = dy / (2 y)
Tensor pow(const Tensor& x, double p);    // y = x^p;            dx = dy * p x^(p-1)
Tensor tanh(const Tensor& x);             // y = tanh x;         dx = dy (1 - y^2)
Tensor sigmoid(const Tensor& x);          // y = 1/(1+e^-x);     dx = dy y (1 - y)
Tensor relu(const Tensor& x);             // y = max(0, x);      dx = dy [x > 0]
Tensor abs(const Tensor& x);              // y = |x|;            dx = dy sign(x), sign(0) = 0 (PyTorch's)
// y = min(max(x, lo), hi), lo <= hi;  dx = dy [lo <= x <= hi]: at a bound the gradient passes,
// the subgradient 1 that PyTorch's clamp gives there (its derivatives.yaml)
Tensor clamp(const Tensor& x, double lo, double hi);
// y = x Phi(x), Phi the standard normal CDF (exact erf form, as torch.nn.GELU);
// dx = dy (Phi(x) + x phi(x))
Tensor gelu(const Tensor& x);
// GELU by its tanh approximation, GPT-2's (PyTorch's gelu(approximate="tanh")):
// y = x (1 + tanh u) / 2, u = sqrt(2/pi) (x + 0.044715 x^3); dx = dy * reference::gelu_tanh's slope
Tensor gelu_tanh(const Tensor& x);

}  // namespace autograd
