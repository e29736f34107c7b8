#include "lectern/autograd/checks.h"

#include <fmt/format.h>

#include "lectern/autograd/tensor.h"

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

std::int64_t check_class_targets(const char* op, const Tensor& scores, const char* what, const Tensor& target,
                                 std::int64_t ignore_index) {
    check_floating(op, scores);
    check_dtype(op, target, Dtype::int64, "target");
    if (scores.dim() < 1) throw ShapeError(fmt::format("{}: {} must be [..., C], got shape []", op, what));
    Shape rows(scores.shape().begin(), scores.shape().end() - 1);
    if (target.shape() != rows)
        throw ShapeError(fmt::format("{}: target {} must have the shape of {} {} without the last dim", op,
                                     shape_str(target.shape()), what, shape_str(scores.shape())));
    const std::int64_t C = scores.size(-1);
    const std::int64_t* t = target.data<std::int64_t>();
    std::int64_t count = 0;
    for (std::int64_t r = 0; r < target.numel(); ++r) {
        if (t[r] == ignore_index) continue;
        if (t[r] < 0 || t[r] >= C)
            throw IndexError(fmt::format("{}: target {} at position {} is outside [0, {})", op, t[r], r, C));
        ++count;
    }
    return count;
}

}  // namespace autograd
