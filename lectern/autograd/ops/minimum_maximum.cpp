#include "lectern/autograd/ops/minimum_maximum.h"

#include "lectern/autograd/checks.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/kernels/broadcast_binary.h"
#include "lectern/autograd/ops/arithmetic.h"
#include "lectern/autograd/ops/broadcast.h"
#include "lectern/autograd/ops/compare.h"

namespace autograd {
namespace {

// y = the larger (or smaller) of a and b;  da = dy w,  db = dy (1 - w),  w = [a wins] + [a = b] / 2
Tensor extremum(const char* op, const Tensor& a, const Tensor& b, bool larger) {
    check_floating(op, a);
    check_floating(op, b);
    check_same_dtype(op, a, b);
    Tensor y = detail::broadcast_binary(op, a, b, [larger](auto x, auto z) {
        if (x != x || z != z) return x != x ? x : z;  // NaN wins
        return (larger ? x > z : x < z) ? x : z;
    });
    const bool need_a = a.requires_grad(), need_b = b.requires_grad();
    return record(op, {a, b}, y, [a = a.detach(), b = b.detach(), larger, need_a, need_b](const Tensor& dy) {
        Tensor w = (larger ? gt(a, b) : lt(a, b)) + eq(a, b) * 0.5;  // [a, b broadcast]
        return std::vector{need_a ? sum_to(dy * w, a.shape()) : Tensor(),
                           need_b ? sum_to(dy * (1.0 - w), b.shape()) : Tensor()};
    });
}

}  // namespace

Tensor maximum(const Tensor& a, const Tensor& b) { return extremum("maximum", a, b, true); }
Tensor minimum(const Tensor& a, const Tensor& b) { return extremum("minimum", a, b, false); }

}  // namespace autograd
