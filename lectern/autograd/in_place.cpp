// The Tensor's in-place updates, for optimizers and initialisers (tensor.h).
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/tensor.h"

namespace autograd {

namespace {
// Checks `t` may be updated in place, and counts the update in its storage's version.
void check_in_place(const char* op, const Tensor& t) {
    if (!t.defined()) throw ValueError(fmt::format("{}: the tensor is undefined", op));
    if (t.requires_grad() && grad_enabled())
        throw GraphError(fmt::format("{}: in-place update of a tensor that requires grad; use a NoGradGuard", op));
    ++t.impl()->storage->version;
}
}  // namespace

Tensor& Tensor::fill_(double value) {
    check_in_place("fill_", *this);
    switch (dtype()) {
        case Dtype::float32:
            std::fill_n(data<float>(), numel(), static_cast<float>(value));
            break;
        case Dtype::float64:
            std::fill_n(data<double>(), numel(), value);
            break;
        case Dtype::int64:
            std::fill_n(data<std::int64_t>(), numel(), static_cast<std::int64_t>(value));
            break;
    }
    return *this;
}

Tensor& Tensor::copy_(const Tensor& src) {
    check_in_place("copy_", *this);
    autograd::check_defined("copy_", src);
    if (src.shape() != shape())
        throw ShapeError(fmt::format("copy_: source shape {} differs from destination {}", shape_str(src.shape()),
                                     shape_str(shape())));
    check_same_dtype("copy_", *this, src);
    std::memcpy(raw_data(), src.raw_data(), static_cast<std::size_t>(numel()) * dtype_size(dtype()));
    return *this;
}

Tensor& Tensor::add_(const Tensor& other, double alpha) {
    check_in_place("add_", *this);
    check_floating("add_", *this);
    check_floating("add_", other);
    if (other.shape() != shape())
        throw ShapeError(fmt::format("add_: shapes differ: {} and {}", shape_str(shape()), shape_str(other.shape())));
    check_same_dtype("add_", *this, other);
    dispatch_floating(dtype(), [&](auto zero) {
        using T = decltype(zero);
        T* y = data<T>();
        const T* x = other.data<T>();
        const T a = static_cast<T>(alpha);
        for (std::int64_t i = 0, n = numel(); i < n; ++i) y[i] += a * x[i];
    });
    return *this;
}

Tensor& Tensor::mul_(double factor) {
    check_in_place("mul_", *this);
    check_floating("mul_", *this);
    dispatch_floating(dtype(), [&](auto zero) {
        using T = decltype(zero);
        T* y = data<T>();
        const T f = static_cast<T>(factor);
        for (std::int64_t i = 0, n = numel(); i < n; ++i) y[i] *= f;
    });
    return *this;
}

}  // namespace autograd
