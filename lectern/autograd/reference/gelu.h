#pragma once
// GELU of one element and its slope, exact and by its tanh approximation: the plain
// references (002 "MLP": the GeLU non-linearity). float64 runs them; the float32 loops of
// autograd::gelu and autograd::gelu_tanh (ops/unary.cpp) are their twins, tested equal in
// tests/autograd/test_fast_equals_reference.cpp.
#include <cmath>
#include <numbers>

namespace autograd::reference {

// Exact:  y = x Phi(x),  Phi(x) = (1 + erf(x / sqrt 2)) / 2
//         dy/dx = Phi(x) + x phi(x),  phi(x) = e^(-x^2 / 2) / sqrt(2 pi)
// Returns y; writes the slope dy/dx, which the backward multiplies by dy.
template <class T>
T gelu(T x, T* slope) {
    const T Phi = T(0.5) * (1 + std::erf(x / std::numbers::sqrt2_v<T>));
    const T phi = std::exp(-x * x / 2) * std::numbers::inv_sqrtpi_v<T> / std::numbers::sqrt2_v<T>;
    *slope = Phi + x * phi;
    return x * Phi;
}

// The tanh approximation GPT-2 was trained with (Hendrycks and Gimpel 2016, section 2;
// PyTorch's gelu(approximate="tanh")), within about 5e-4 of the exact GELU:
//   u = sqrt(2/pi) (x + 0.044715 x^3),  y = x (1 + tanh u) / 2
//   dy/dx = (1 + tanh u) / 2 + x (1 - tanh^2 u) sqrt(2/pi) (1 + 3 * 0.044715 x^2) / 2
template <class T>
T gelu_tanh(T x, T* slope) {
    const T c = std::sqrt(2 / std::numbers::pi_v<T>), a = T(0.044715);
    const T t = std::tanh(c * (x + a * x * x * x));
    *slope = (1 + t) / 2 + x * (1 - t * t) * c * (1 + 3 * a * x * x) / 2;
    return x * (1 + t) / 2;
}

}  // namespace autograd::reference
