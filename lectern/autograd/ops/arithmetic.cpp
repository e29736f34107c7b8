#include "lectern/autograd/ops/arithmetic.h"

#include "lectern/autograd/checks.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/ops/broadcast.h"
#include "lectern/autograd/kernels/broadcast_binary.h"
#include "lectern/autograd/kernels/map.h"

namespace autograd {
namespace {

void check_binary(const char* op, const Tensor& a, const Tensor& b) {
    check_floating(op, a);
    check_floating(op, b);
    check_same_dtype(op, a, b);
}

// Gradient of an operand that may have been broadcast, or none if not needed.
Tensor grad_for(const Tensor& operand, const Tensor& g) {
    return operand.requires_grad() ? sum_to(g, operand.shape()) : Tensor();
}

}  // namespace

// y = a + b;  da = dy, db = dy
Tensor add(const Tensor& a, const Tensor& b) {
    check_binary("add", a, b);
    Tensor y = detail::broadcast_binary("add", a, b, [](auto x, auto z) { return x + z; });
    return record("add", {a, b}, y, [a, b](const Tensor& dy) { return std::vector{grad_for(a, dy), grad_for(b, dy)}; });
}

// y = a - b;  da = dy, db = -dy
Tensor sub(const Tensor& a, const Tensor& b) {
    check_binary("sub", a, b);
    Tensor y = detail::broadcast_binary("sub", a, b, [](auto x, auto z) { return x - z; });
    return record("sub", {a, b}, y, [a, b](const Tensor& dy) {
        return std::vector{grad_for(a, dy), b.requires_grad() ? grad_for(b, neg(dy)) : Tensor()};
    });
}

// y = a * b;  da = dy * b, db = dy * a
Tensor mul(const Tensor& a, const Tensor& b) {
    check_binary("mul", a, b);
    Tensor y = detail::broadcast_binary("mul", a, b, [](auto x, auto z) { return x * z; });
    return record("mul", {a, b}, y, [a, b](const Tensor& dy) {
        return std::vector{a.requires_grad() ? grad_for(a, mul(dy, b)) : Tensor(),
                           b.requires_grad() ? grad_for(b, mul(dy, a)) : Tensor()};
    });
}

// y = a / b;  da = dy / b, db = -dy * a / b^2 = -dy * y / b
Tensor div(const Tensor& a, const Tensor& b) {
    check_binary("div", a, b);
    Tensor y = detail::broadcast_binary("div", a, b, [](auto x, auto z) { return x / z; });
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
