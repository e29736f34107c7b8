#include "lectern/autograd/ops/unary.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <type_traits>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/kernels/map.h"
#include "lectern/autograd/kernels/vector_math.h"
#include "lectern/autograd/parallel.h"
#include "lectern/autograd/reference/gelu.h"

namespace autograd {
namespace {

// dx = grad(dy, x, y) elementwise (dy times the derivative at x): the fused backward of a unary op.
template <class Grad>
Tensor chain(const Tensor& dy, const Tensor& x, const Tensor& y, Grad grad) {
    Tensor dx = Tensor::empty(dy.shape(), dy.dtype());
    dispatch_floating(dy.dtype(), [&](auto zero) {
        using T = decltype(zero);
        // dx is a new tensor: saying it aliases nothing lets the loop vectorise.
        const T* __restrict__ pdy = dy.data<T>();
        const T* __restrict__ px = x.data<T>();
        const T* __restrict__ py = y.data<T>();
        T* __restrict__ pdx = dx.data<T>();
        parallel_for(dy.numel(), 1, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) pdx[i] = grad(pdy[i], px[i], py[i]);
        });
    });
    return dx;
}

// The op y = f(x) elementwise; grad(dy, x, y) is dy times its derivative, written in terms of x or y.
template <class F, class Grad>
Tensor unary(const char* op, const Tensor& x, F f, Grad grad) {
    check_floating(op, x);
    Tensor y = detail::map(x, f);
    return record(op, {x}, y, [x = x.detach(), y = y.detach(), grad](const Tensor& dy) {
        return std::vector{chain(dy, x, y, grad)};
    });
}

}  // namespace

// y = e^x;  dx = dy * y
Tensor exp(const Tensor& x) {
    return unary(
        "exp", x, [](auto v) { return std::exp(v); }, [](auto dy, auto, auto y) { return dy * y; });
}

// y = ln x;  dx = dy / x
Tensor log(const Tensor& x) {
    return unary(
        "log", x, [](auto v) { return std::log(v); }, [](auto dy, auto x, auto) { return dy * (1 / x); });
}

// y = sqrt x;  dx = dy / (2 y)
Tensor sqrt(const Tensor& x) {
    return unary(
        "sqrt", x, [](auto v) { return std::sqrt(v); }, [](auto dy, auto, auto y) { return dy * (1 / (2 * y)); });
}

// y = x^p;  dx = dy * p x^(p-1)
Tensor pow(const Tensor& x, double p) {
    return unary(
        "pow", x, [p](auto v) { return std::pow(v, static_cast<decltype(v)>(p)); },
        [p](auto dy, auto x, auto) {
            using T = decltype(x);
            if (p == 0) return T(0);  // x^0 is constant; p x^(p-1) would be 0 * inf at x = 0
            return dy * (static_cast<T>(p) * std::pow(x, static_cast<T>(p - 1)));
        });
}

// y = tanh x;  dx = dy (1 - y^2)
Tensor tanh(const Tensor& x) {
    return unary(
        "tanh", x, [](auto v) { return std::tanh(v); }, [](auto dy, auto, auto y) { return dy * (1 - y * y); });
}

// y = 1 / (1 + e^-x);  dx = dy y (1 - y)
Tensor sigmoid(const Tensor& x) {
    return unary(
        "sigmoid", x, [](auto v) { return 1 / (1 + std::exp(-v)); },
        [](auto dy, auto, auto y) { return dy * (y * (1 - y)); });
}

// y = max(0, x);  dx = dy [x > 0]
// (a select, not dy * [x > 0]: GCC will not vectorise a multiply that only some lanes need)
Tensor relu(const Tensor& x) {
    return unary(
        "relu", x, [](auto v) { return v > 0 ? v : decltype(v){0}; },
        [](auto dy, auto x, auto) { return x > 0 ? dy : decltype(dy){0}; });
}

// y = |x|;  dx = dy sign(x), with sign(0) = 0 (PyTorch's subgradient at the kink)
Tensor abs(const Tensor& x) {
    return unary(
        "abs", x, [](auto v) { return std::abs(v); },
        [](auto dy, auto x, auto) { return x > 0   ? dy
                                           : x < 0 ? -dy
                                                   : decltype(dy){0}; });
}

// y = sin x;  dx = dy cos x
Tensor sin(const Tensor& x) {
    return unary(
        "sin", x, [](auto v) { return std::sin(v); }, [](auto dy, auto x, auto) { return dy * std::cos(x); });
}

// y = cos x;  dx = -dy sin x
Tensor cos(const Tensor& x) {
    return unary(
        "cos", x, [](auto v) { return std::cos(v); }, [](auto dy, auto x, auto) { return -dy * std::sin(x); });
}

// y = ln(1 + x);  dx = dy / (1 + x)   (std::log1p keeps the digits of a tiny x that 1 + x would lose)
Tensor log1p(const Tensor& x) {
    return unary(
        "log1p", x, [](auto v) { return std::log1p(v); }, [](auto dy, auto x, auto) { return dy / (1 + x); });
}

// y = x s with s = 1 / (1 + e^-x) (SiLU, "swish");  dx = dy (s + x s (1 - s)) = dy s (1 + x (1 - s))
Tensor silu(const Tensor& x) {
    return unary(
        "silu", x, [](auto v) { return v / (1 + std::exp(-v)); },
        [](auto dy, auto x, auto) {
            const auto s = 1 / (1 + std::exp(-x));
            return dy * (s * (1 + x * (1 - s)));
        });
}

// y = ln(1 + e^x) = max(x, 0) + ln(1 + e^-|x|);  dx = dy / (1 + e^-x) = dy sigmoid x
Tensor softplus(const Tensor& x) {
    return unary(
        "softplus", x, [](auto v) { return std::max(v, decltype(v){0}) + std::log1p(std::exp(-std::abs(v))); },
        [](auto dy, auto x, auto) { return dy / (1 + std::exp(-x)); });
}

// y = min(max(x, lo), hi);  dx = dy [lo <= x <= hi] (PyTorch passes the gradient at the bounds)
Tensor clamp(const Tensor& x, double lo, double hi) {
    if (!(lo <= hi)) throw ValueError(fmt::format("clamp: the bounds [{}, {}] are not an interval (lo <= hi)", lo, hi));
    return unary(
        "clamp", x,
        [lo, hi](auto v) {
            using T = decltype(v);
            return std::min(std::max(v, static_cast<T>(lo)), static_cast<T>(hi));
        },
        [lo, hi](auto dy, auto x, auto) {
            using T = decltype(x);
            return x >= static_cast<T>(lo) && x <= static_cast<T>(hi) ? dy : T(0);
        });
}

namespace {

// An activation whose forward keeps its slope dy/dx beside y, so the backward is one
// multiply: dx = dy * slope. `f(x, &slope)` returns y; float64 passes the reference
// kernel, float32 its vectorisable twin.
template <class F32, class F64>
Tensor with_slope(const char* op, const Tensor& x, F32 f32, F64 f64) {
    check_floating(op, x);
    Tensor y = Tensor::empty(x.shape(), x.dtype()), slope = Tensor::empty(x.shape(), x.dtype());
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* __restrict__ px = x.data<T>();  // new outputs: no aliasing, so the loop vectorises
        T* __restrict__ py = y.data<T>();
        T* __restrict__ ps = slope.data<T>();
        parallel_for(x.numel(), 2, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) {
                if constexpr (std::is_same_v<T, double>) py[i] = f64(px[i], ps + i);
                else py[i] = f32(px[i], ps + i);
            }
        });
    });
    return record(op, {x}, y, [slope](const Tensor& dy) {
        Tensor dx = Tensor::empty(dy.shape(), dy.dtype());
        dispatch_floating(dy.dtype(), [&](auto zero) {
            using T = decltype(zero);
            const T* __restrict__ pdy = dy.data<T>();
            const T* __restrict__ ps = slope.data<T>();
            T* __restrict__ pdx = dx.data<T>();
            parallel_for(dy.numel(), 1, [&](std::int64_t begin, std::int64_t end) {
                for (std::int64_t i = begin; i < end; ++i) pdx[i] = pdy[i] * ps[i];
            });
        });
        return std::vector{dx};
    });
}

}  // namespace

// y = x Phi(x) with Phi(x) = (1 + erf(x / sqrt 2)) / 2;  dx = dy (Phi(x) + x phi(x)),
// phi(x) = e^(-x^2/2) / sqrt(2 pi)   (002 "MLP": the GeLU non-linearity)
// float64 runs reference::gelu (reference/gelu.h). The float32 loop computes it with
// kernels/vector_math.h's erf, so that it vectorises; tested equal in
// tests/autograd/test_fast_equals_reference.cpp. Its erf computes e^(-x^2/2) on the way, so
// the slope costs two multiply-adds more.
Tensor gelu(const Tensor& x) {
    const float inv_sqrt2 = static_cast<float>(std::numbers::sqrt2 / 2);
    const float inv_sqrt_2pi = static_cast<float>(std::numbers::inv_sqrtpi / std::numbers::sqrt2);
    return with_slope(
        "gelu", x,
        [=](float v, float* slope) {
            float gauss;  // e^(-v^2 / 2)
            const float Phi = 0.5f * (1 + detail::erf_f32(v * inv_sqrt2, &gauss));
            *slope = Phi + v * gauss * inv_sqrt_2pi;
            return v * Phi;
        },
        [](double v, double* slope) { return reference::gelu(v, slope); });
}

// y = x (1 + tanh u) / 2 with u = sqrt(2/pi) (x + 0.044715 x^3), GPT-2's GELU; the slope is
// reference::gelu_tanh's. float32 writes it with E = e^(2u) from vector_math.h, so that it
// vectorises: (1 + tanh u) / 2 = E / (E + 1) and (1 - tanh u) / 2 = 1 / (E + 1), each without
// the cancellation of 1 + tanh u where tanh u is near -1 (the slope's tail for x below -5):
//   y = x p,  dy/dx = p + 2 x p q sqrt(2/pi) (1 + 3 * 0.044715 x^2),  p = 1 / (1 + 1 / E), q = 1 / (E + 1)
Tensor gelu_tanh(const Tensor& x) {
    const float c = static_cast<float>(std::sqrt(2 / std::numbers::pi)), a = 0.044715f;
    return with_slope(
        "gelu_tanh", x,
        [=](float v, float* slope) {
            const float v2 = v * v, E = detail::exp_f32(2 * c * v * (1 + a * v2));
            const float q = 1 / (E + 1), p = 1 / (1 + 1 / E);  // E = 0 or infinity at the ends: p 0 or 1
            *slope = p + 2 * v * p * q * c * (1 + 3 * a * v2);
            return v * p;
        },
        [](double v, double* slope) { return reference::gelu_tanh(v, slope); });
}

}  // namespace autograd
