#pragma once
// GELU of one float32 element and its slope: computes reference::gelu (reference/gelu.h, the
// equations) with vector_math.h's erf and e^x, so that a loop calling it vectorises; tested
// equal in tests/autograd/test_fast_equals_reference.cpp. Internal to autograd.
//   y = x Phi(x),  slope = Phi(x) + x phi(x)
// Its erf computes e^(-x^2 / 2) = sqrt(2 pi) phi(x) on the way, so the slope costs two
// multiply-adds more, and the backward is one multiply an element, not an e^x.
#include <numbers>

#include "autograd/kernels/vector_math.h"

namespace autograd::detail {

inline float gelu_f32(float x, float* slope) {
    constexpr float inv_sqrt2 = std::numbers::sqrt2_v<float> / 2;
    constexpr float inv_sqrt_2pi = std::numbers::inv_sqrtpi_v<float> / std::numbers::sqrt2_v<float>;
    float gauss;  // e^(-x^2 / 2)
    const float Phi = 0.5f * (1 + erf_f32(x * inv_sqrt2, &gauss));
    *slope = Phi + x * gauss * inv_sqrt_2pi;
    return x * Phi;
}

}  // namespace autograd::detail
