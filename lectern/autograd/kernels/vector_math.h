#pragma once
// e^x and erf(x) for float32 kernels, written as plain arithmetic so that a loop
// calling them vectorises (a call to libm's expf or erff stops GCC vectorising it).
// Every step is an ordinary float operation, so the result is the same on every
// machine. float64 runs the reference kernels (autograd/reference/), with std::exp and
// std::erf. Internal to autograd.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "lectern/autograd/kernels/lanes.h"

namespace autograd::detail {

// e^x = 2^k e^r with k = round(x / ln 2) and r = x - k ln 2, |r| <= ln 2 / 2; ln 2 is
// subtracted in two parts so r is exact, and e^r is Cephes's degree-7 polynomial for
// expf (relative error under 2^-23 on that range). These steps, for x already clamped to
// [-87, 88] and V a float or eight (lanes.h), return e^r and set k; exp_f32 and
// exp_f32_lanes scale e^r by 2^k and keep the limits.
template <class V>
inline V exp_f32_reduced(V xc, V& k) {
    k = (xc * 1.44269504088896341f + 12582912.0f) - 12582912.0f;  // round to nearest: 1.5 * 2^23
    const V r = (xc - k * 0.693359375f) - k * -2.12194440e-4f;
    V p = V{} + 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    return p * (r * r) + r + 1.0f;
}

// x is clamped to [-87, 88] (e^88 < FLT_MAX, e^-87 > FLT_MIN), and NaN to -87, so that k is a
// number: converting NaN to an integer is undefined behaviour, which a compiler may exploit.
// The limits and NaN are selected at the end: selects, not branches, so the loops stay
// vectorisable.
inline float exp_f32(float x) {
    const float xc = x > -87.0f ? std::min(x, 88.0f) : -87.0f;
    float k;
    const float e_r = exp_f32_reduced(xc, k);
    const float two_k = std::bit_cast<float>((static_cast<std::int32_t>(k) + 127) << 23);
    const float low = x < -87.0f ? 0.0f : e_r * two_k;
    const float high = x > 88.0f ? std::numeric_limits<float>::infinity() : low;
    return x == x ? high : x;
}

// exp_f32 of eight floats at once, for kernels whose vectors are written out: each lane's
// result is exp_f32's.
inline Lanes<float> exp_f32_lanes(Lanes<float> x) {
    using V = Lanes<float>;
    using I = Lanes<std::int32_t>;
    const V xc = x > -87.0f ? (x < 88.0f ? x : V{} + 88.0f) : V{} - 87.0f;
    V k;
    const V e_r = exp_f32_reduced(xc, k);
    const V two_k = std::bit_cast<V>((__builtin_convertvector(k, I) + 127) << 23);
    const V low = x < -87.0f ? V{} : e_r * two_k;
    const V high = x > 88.0f ? V{} + std::numeric_limits<float>::infinity() : low;
    return x == x ? high : x;
}

// erf(x) = 1 - t (a1 + a2 t + ... + a5 t^4) e^(-x^2),  t = 1 / (1 + p |x|), with the sign of
// x: Abramowitz and Stegun 7.1.26, whose absolute error is under 1.5e-7; in float32 arithmetic
// under 6e-7 (tests/autograd/test_vector_math.cpp), a few ulp near 1.
// Also sets *gauss = e^(-x^2), which it computes on the way (GELU's forward wants both).
inline float erf_f32(float x, float* gauss) {
    const float a = std::fabs(x);
    const float t = 1.0f / (1.0f + 0.3275911f * a);
    const float poly =
        t * (0.254829592f + t * (-0.284496736f + t * (1.421413741f + t * (-1.453152027f + t * 1.061405429f))));
    *gauss = exp_f32(-a * a);
    return std::copysign(1.0f - poly * *gauss, x);
}
inline float erf_f32(float x) {
    float gauss;
    return erf_f32(x, &gauss);
}

}  // namespace autograd::detail
