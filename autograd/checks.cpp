#include "autograd/checks.h"

#include <fmt/format.h>

#include "autograd/tensor.h"

namespace autograd {

void check_defined(const char* op, const Tensor& t) {
    if (!t.defined()) throw ValueError(fmt::format("{}: operand is an undefined tensor", op));
}

void check_floating(const char* op, const Tensor& t) {
    check_defined(op, t);
    if (!is_floating(t.dtype()))
        throw DtypeError(fmt::format("{}: expected a float32 or float64 tensor, got {} of shape {}", op,
                                     dtype_name(t.dtype()), shape_str(t.shape())));
}

void check_same_dtype(const char* op, const Tensor& a, const Tensor& b) {
    if (a.dtype() != b.dtype())
        throw DtypeError(fmt::format("{}: dtypes differ: {} {} and {} {}", op, dtype_name(a.dtype()),
                                     shape_str(a.shape()), dtype_name(b.dtype()), shape_str(b.shape())));
}

void check_dtype(const char* op, const Tensor& t, Dtype expected, const char* what) {
    check_defined(op, t);
    if (t.dtype() != expected)
        throw DtypeError(fmt::format("{}: {} must be {}, got {} of shape {}", op, what, dtype_name(expected),
                                     dtype_name(t.dtype()), shape_str(t.shape())));
}

}  // namespace autograd
