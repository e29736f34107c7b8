#pragma once
// GELU of one element and its slope: the plain reference (002 "MLP": the GeLU non-linearity).
// float64 runs it; the float32 loop of autograd::gelu (ops/unary.cpp) is its twin, tested
// equal in tests/autograd/test_fast_equals_reference.cpp.
//   y = x Phi(x),  Phi(x) = (1 + erf(x / sqrt 2)) / 2
//   dy/dx = Phi(x) + x phi(x),  phi(x) = e^(-x^2 / 2) / sqrt(2 pi)
#include <cmath>
#include <numbers>

namespace autograd::reference {

// Returns y; writes the slope dy/dx, which the backward multiplies by dy.
template <class T>
T gelu(T x, T* slope) {
    const T Phi = T(0.5) * (1 + std::erf(x / std::numbers::sqrt2_v<T>));
    const T phi = std::exp(-x * x / 2) * std::numbers::inv_sqrtpi_v<T> / std::numbers::sqrt2_v<T>;
    *slope = Phi + x * phi;
    return x * Phi;
}

}  // namespace autograd::reference
