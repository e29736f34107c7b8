#include "lectern/autograd/ops/compare.h"

#include "lectern/autograd/checks.h"
#include "lectern/autograd/factories.h"
#include "lectern/autograd/kernels/broadcast_binary.h"

namespace autograd {
namespace {

// out = [relation(a, b)] over the broadcast shape, in a's dtype; never recorded.
template <class Relation>
Tensor compare(const char* op, const Tensor& a, const Tensor& b, Relation relation) {
    check_defined(op, a);
    check_defined(op, b);
    check_same_dtype(op, a, b);
    Tensor out = Tensor::empty(broadcast_shapes(op, a.shape(), b.shape()), a.dtype());
    auto run = [&](auto zero) {
        using T = decltype(zero);
        detail::broadcast_binary_into<T>(a, b, out, [&](T x, T z) { return relation(x, z) ? T(1) : T(0); });
    };
    if (a.dtype() == Dtype::int64) run(std::int64_t{});
    else dispatch_floating(a.dtype(), run);
    return out;
}

}  // namespace

Tensor eq(const Tensor& a, const Tensor& b) {
    return compare("eq", a, b, [](auto x, auto z) { return x == z; });
}
Tensor ne(const Tensor& a, const Tensor& b) {
    return compare("ne", a, b, [](auto x, auto z) { return x != z; });
}
Tensor lt(const Tensor& a, const Tensor& b) {
    return compare("lt", a, b, [](auto x, auto z) { return x < z; });
}
Tensor gt(const Tensor& a, const Tensor& b) {
    return compare("gt", a, b, [](auto x, auto z) { return x > z; });
}
Tensor le(const Tensor& a, const Tensor& b) {
    return compare("le", a, b, [](auto x, auto z) { return x <= z; });
}
Tensor ge(const Tensor& a, const Tensor& b) {
    return compare("ge", a, b, [](auto x, auto z) { return x >= z; });
}

Tensor logical_and(const Tensor& a, const Tensor& b) {
    return compare("logical_and", a, b, [](auto x, auto z) { return x != 0 && z != 0; });
}
Tensor logical_or(const Tensor& a, const Tensor& b) {
    return compare("logical_or", a, b, [](auto x, auto z) { return x != 0 || z != 0; });
}
Tensor logical_xor(const Tensor& a, const Tensor& b) {
    return compare("logical_xor", a, b, [](auto x, auto z) { return (x != 0) != (z != 0); });
}
// [x == 0], as a comparison with a 0-d zero of x's dtype
Tensor logical_not(const Tensor& x) {
    check_defined("logical_not", x);
    return compare("logical_not", x, zeros({}, x.dtype()), [](auto v, auto) { return v == 0; });
}

}  // namespace autograd
