#pragma once
// Elementwise functions of one floating tensor, each with its derivative.
#include "lectern/autograd/tensor.h"

namespace autograd {

Tensor exp(const Tensor& x);            // y = e^x;            dx = dy * y
Tensor log(const Tensor& x);            // y = ln x;           dx = dy / x
Tensor sqrt(const Tensor& x);           // y = sqrt x;         dx = dy / (2 y)
Tensor pow(const Tensor& x, double p);  // y = x^p;            dx = dy * p x^(p-1)
Tensor tanh(const Tensor& x);           // y = tanh x;         dx = dy (1 - y^2)
Tensor sigmoid(const Tensor& x);        // y = 1/(1+e^-x);     dx = dy y (1 - y)
Tensor relu(const Tensor& x);           // y = max(0, x);      dx = dy [x > 0]
Tensor abs(const Tensor& x);            // y = |x|;            dx = dy sign(x), sign(0) = 0 (PyTorch's)
Tensor sin(const Tensor& x);            // y = sin x;          dx = dy cos x
Tensor cos(const Tensor& x);            // y = cos x;          dx = -dy sin x
Tensor log1p(const Tensor& x);          // y = ln(1 + x);      dx = dy / (1 + x), exact for tiny x
Tensor silu(const Tensor& x);           // y = x s, s = sigmoid x;  dx = dy s (1 + x (1 - s))
// y = ln(1 + e^x), as max(x, 0) + ln(1 + e^-|x|) so that it never overflows;  dx = dy sigmoid x.
// PyTorch's softplus returns x itself above x = 20, where the two differ by under 2.1e-9.
Tensor softplus(const Tensor& x);
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
