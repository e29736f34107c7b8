#include "lectern/autograd/ops/arithmetic.h"

#include "lectern/autograd/checks.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/ops/broadcast.h"
#include "lectern/autograd/kernels/broadcast_loop.h"
#include "lectern/autograd/kernels/map.h"
#include "lectern/autograd/parallel.h"

namespace autograd {
namespace {

void check_binary(const char* op, const Tensor& a, const Tensor& b) {
    check_floating(op, a);
    check_floating(op, b);
    check_same_dtype(op, a, b);
}

// out = f(a, b) elementwise over the broadcast shape.
template <class F>
Tensor broadcast_binary(const char* op, const Tensor& a, const Tensor& b, F f) {
    Shape shape = broadcast_shapes(op, a.shape(), b.shape());
    Tensor out = Tensor::empty(shape, a.dtype());
    dispatch_floating(a.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* pa = a.data<T>();
        const T* pb = b.data<T>();
        T* __restrict__ po = out.data<T>();  // a new tensor
        if (a.shape() == b.shape()) {  // the common case: one flat loop
            parallel_for(out.numel(), 1, [&](std::int64_t begin, std::int64_t end) {
                for (std::int64_t i = begin; i < end; ++i) po[i] = f(pa[i], pb[i]);
            });
            return;
        }
        detail::parallel_for_each_broadcast_row(
            shape, broadcast_strides(a.shape(), shape), broadcast_strides(b.shape(), shape),
            [&](std::int64_t o, std::int64_t ia, std::int64_t ib, std::int64_t len, std::int64_t sa,
                std::int64_t sb) {
                if (sa == 1 && sb == 0) {  // e.g. a bias [D] added to rows of [N, D]: b is fixed along the row
                    const T vb = pb[ib];
                    for (std::int64_t i = 0; i < len; ++i) po[o + i] = f(pa[ia + i], vb);
                } else if (sa == 1 && sb == 1) {
                    for (std::int64_t i = 0; i < len; ++i) po[o + i] = f(pa[ia + i], pb[ib + i]);
                } else {
                    for (std::int64_t i = 0; i < len; ++i) po[o + i] = f(pa[ia + i * sa], pb[ib + i * sb]);
                }
            });
    });
    return out;
}

// Gradient of an operand that may have been broadcast, or none if not needed.
Tensor grad_for(const Tensor& operand, const Tensor& g) {
    return operand.requires_grad() ? sum_to(g, operand.shape()) : Tensor();
}

}  // namespace

// y = a + b;  da = dy, db = dy
Tensor add(const Tensor& a, const Tensor& b) {
    check_binary("add", a, b);
    Tensor y = broadcast_binary("add", a, b, [](auto x, auto z) { return x + z; });
    return record("add", {a, b}, y, [a, b](const Tensor& dy) { return std::vector{grad_for(a, dy), grad_for(b, dy)}; });
}

// y = a - b;  da = dy, db = -dy
Tensor sub(const Tensor& a, const Tensor& b) {
    check_binary("sub", a, b);
    Tensor y = broadcast_binary("sub", a, b, [](auto x, auto z) { return x - z; });
    return record("sub", {a, b}, y, [a, b](const Tensor& dy) {
        return std::vector{grad_for(a, dy), b.requires_grad() ? grad_for(b, neg(dy)) : Tensor()};
    });
}

// y = a * b;  da = dy * b, db = dy * a
Tensor mul(const Tensor& a, const Tensor& b) {
    check_binary("mul", a, b);
    Tensor y = broadcast_binary("mul", a, b, [](auto x, auto z) { return x * z; });
    return record("mul", {a, b}, y, [a, b](const Tensor& dy) {
        return std::vector{a.requires_grad() ? grad_for(a, mul(dy, b)) : Tensor(),
                           b.requires_grad() ? grad_for(b, mul(dy, a)) : Tensor()};
    });
}

// y = a / b;  da = dy / b, db = -dy * a / b^2 = -dy * y / b
Tensor div(const Tensor& a, const Tensor& b) {
    check_binary("div", a, b);
    Tensor y = broadcast_binary("div", a, b, [](auto x, auto z) { return x / z; });
    Tensor y_value = y.detach();
    return record("div", {a, b}, y, [a, b, y_value](const Tensor& dy) {
        return std::vector{a.requires_grad() ? grad_for(a, div(dy, b)) : Tensor(),
                           b.requires_grad() ? grad_for(b, neg(div(mul(dy, y_value), b))) : Tensor()};
    });
}

// y = -x;  dx = -dy
Tensor neg(const Tensor& x) {
    check_floating("neg", x);
    Tensor y = detail::map(x, [](auto v) { return -v; });
    return record("neg", {x}, y, [](const Tensor& dy) { return std::vector{neg(dy)}; });
}

// Scalar operands: y = x + s (dx = dy), x - s, s - x (dx = -dy), x * s (dx = s dy),
// x / s (dx = dy / s), s / x (dx = -dy s / x^2).
Tensor add(const Tensor& a, double s) {
    check_floating("add", a);
    Tensor y = detail::map(a, [s](auto v) { return v + static_cast<decltype(v)>(s); });
    return record("add", {a}, y, [](const Tensor& dy) { return std::vector{dy}; });
}

Tensor sub(const Tensor& a, double s) { return add(a, -s); }

Tensor sub(double s, const Tensor& b) {
    check_floating("sub", b);
    Tensor y = detail::map(b, [s](auto v) { return static_cast<decltype(v)>(s) - v; });
    return record("sub", {b}, y, [](const Tensor& dy) { return std::vector{neg(dy)}; });
}

Tensor mul(const Tensor& a, double s) {
    check_floating("mul", a);
    Tensor y = detail::map(a, [s](auto v) { return v * static_cast<decltype(v)>(s); });
    return record("mul", {a}, y, [s](const Tensor& dy) { return std::vector{mul(dy, s)}; });
}

Tensor div(const Tensor& a, double s) {
    check_floating("div", a);
    Tensor y = detail::map(a, [s](auto v) { return v / static_cast<decltype(v)>(s); });
    return record("div", {a}, y, [s](const Tensor& dy) { return std::vector{div(dy, s)}; });
}

Tensor div(double s, const Tensor& b) {
    check_floating("div", b);
    Tensor y = detail::map(b, [s](auto v) { return static_cast<decltype(v)>(s) / v; });
    Tensor y_value = y.detach();
    return record("div", {b}, y, [b, y_value](const Tensor& dy) { return std::vector{neg(div(mul(dy, y_value), b))}; });
}

}  // namespace autograd
