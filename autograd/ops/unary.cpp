#include "autograd/ops/unary.h"

#include <cmath>
#include <numbers>

#include "autograd/graph.h"
#include "autograd/ops/arithmetic.h"

namespace autograd {
namespace {

// y = f(x) elementwise into a new tensor.
template <class F>
Tensor map(const char* op, const Tensor& x, F f) {
    check_floating(op, x);
    Tensor y = Tensor::empty(x.shape(), x.dtype());
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* p = x.data<T>();
        T* q = y.data<T>();
        for (std::int64_t i = 0, n = x.numel(); i < n; ++i) q[i] = f(p[i]);
    });
    return y;
}

// dx = dy * g(x, y) elementwise: the fused backward of a unary op.
template <class G>
Tensor chain(const Tensor& dy, const Tensor& x, const Tensor& y, G g) {
    Tensor dx = Tensor::empty(dy.shape(), dy.dtype());
    dispatch_floating(dy.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* pd = dy.data<T>();
        const T* px = x.data<T>();
        const T* py = y.data<T>();
        T* q = dx.data<T>();
        for (std::int64_t i = 0, n = dy.numel(); i < n; ++i) q[i] = pd[i] * g(px[i], py[i]);
    });
    return dx;
}

// Records a unary op whose derivative is g(x, y).
template <class G>
Tensor record_unary(const char* op, const Tensor& x, Tensor y, G g) {
    Tensor x_value = x.detach(), y_value = y.detach();
    return record(op, {x}, y, [x_value, y_value, g](const Tensor& dy) {
        return std::vector{chain(dy, x_value, y_value, g)};
    });
}

}  // namespace

// y = e^x;  dx = dy * y
Tensor exp(const Tensor& x) {
    Tensor y = map("exp", x, [](auto v) { return std::exp(v); });
    return record_unary("exp", x, y, [](auto, auto y) { return y; });
}

// y = ln x;  dx = dy / x
Tensor log(const Tensor& x) {
    Tensor y = map("log", x, [](auto v) { return std::log(v); });
    return record_unary("log", x, y, [](auto x, auto) { return 1 / x; });
}

// y = sqrt x;  dx = dy / (2 y)
Tensor sqrt(const Tensor& x) {
    Tensor y = map("sqrt", x, [](auto v) { return std::sqrt(v); });
    return record_unary("sqrt", x, y, [](auto, auto y) { return 1 / (2 * y); });
}

// y = x^p;  dx = dy * p x^(p-1)
Tensor pow(const Tensor& x, double p) {
    Tensor y = map("pow", x, [p](auto v) { return std::pow(v, static_cast<decltype(v)>(p)); });
    return record_unary("pow", x, y, [p](auto x, auto) {
        using T = decltype(x);
        if (p == 0) return T(0);  // x^0 is constant; p x^(p-1) would be 0 * inf at x = 0
        return static_cast<T>(p) * std::pow(x, static_cast<T>(p - 1));
    });
}

// y = tanh x;  dx = dy (1 - y^2)
Tensor tanh(const Tensor& x) {
    Tensor y = map("tanh", x, [](auto v) { return std::tanh(v); });
    return record_unary("tanh", x, y, [](auto, auto y) { return 1 - y * y; });
}

// y = 1 / (1 + e^-x);  dx = dy y (1 - y)
Tensor sigmoid(const Tensor& x) {
    Tensor y = map("sigmoid", x, [](auto v) { return 1 / (1 + std::exp(-v)); });
    return record_unary("sigmoid", x, y, [](auto, auto y) { return y * (1 - y); });
}

// y = max(0, x);  dx = dy [x > 0]
Tensor relu(const Tensor& x) {
    Tensor y = map("relu", x, [](auto v) { return v > 0 ? v : decltype(v){0}; });
    return record_unary("relu", x, y, [](auto x, auto) { return x > 0 ? decltype(x){1} : decltype(x){0}; });
}

// y = x Phi(x) with Phi(x) = (1 + erf(x / sqrt 2)) / 2;  dx = dy (Phi(x) + x phi(x)),
// phi(x) = e^(-x^2/2) / sqrt(2 pi)   (002 "MLP": the GeLU non-linearity)
Tensor gelu(const Tensor& x) {
    Tensor y = map("gelu", x, [](auto v) {
        using T = decltype(v);
        return v * T(0.5) * (1 + std::erf(v * static_cast<T>(std::numbers::sqrt2 / 2)));
    });
    return record_unary("gelu", x, y, [](auto x, auto) {
        using T = decltype(x);
        T cdf = T(0.5) * (1 + std::erf(x * static_cast<T>(std::numbers::sqrt2 / 2)));
        T pdf = std::exp(-T(0.5) * x * x) * static_cast<T>(std::numbers::inv_sqrtpi / std::numbers::sqrt2);
        return cdf + x * pdf;
    });
}

}  // namespace autograd
