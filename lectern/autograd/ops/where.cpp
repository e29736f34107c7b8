#include "lectern/autograd/ops/where.h"

#include "lectern/autograd/checks.h"
#include "lectern/autograd/factories.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/ops/broadcast.h"
#include "lectern/autograd/ops/compare.h"
#include "lectern/autograd/parallel.h"

namespace autograd {
namespace {

// out = (pick != 0 ? x : y) elementwise, all of one shape and dtype; an undefined x or y is 0.
Tensor choose(const Tensor& pick, const Tensor& x, const Tensor& y) {
    Tensor out = Tensor::empty(pick.shape(), pick.dtype());
    dispatch_floating(pick.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* pm = pick.data<T>();
        const T* px = x.defined() ? x.data<T>() : nullptr;
        const T* py = y.defined() ? y.data<T>() : nullptr;
        T* __restrict__ po = out.data<T>();  // a new tensor
        parallel_for(out.numel(), 1, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) po[i] = pm[i] != 0 ? (px ? px[i] : T(0)) : (py ? py[i] : T(0));
        });
    });
    return out;
}

}  // namespace

// y = a where cond != 0, b elsewhere;  da = dy [cond != 0], db = dy [cond == 0]
Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b) {
    check_defined("where", cond);
    check_floating("where", a);
    check_floating("where", b);
    check_same_dtype("where", a, b);
    const Shape shape = broadcast_shapes("where", cond.shape(), broadcast_shapes("where", a.shape(), b.shape()));
    // cond as 1/0 in a's dtype, and the operands, each repeated to the output's shape
    Tensor pick = broadcast_to(ne(cond, zeros({}, cond.dtype())).to(a.dtype()), shape);
    Tensor y = choose(pick, broadcast_to(a.detach(), shape), broadcast_to(b.detach(), shape));
    const bool need_a = a.requires_grad(), need_b = b.requires_grad();
    return record("where", {a, b}, y,
                  [pick, a_shape = a.shape(), b_shape = b.shape(), need_a, need_b](const Tensor& dy) {
                      return std::vector{need_a ? sum_to(choose(pick, dy, Tensor()), a_shape) : Tensor(),
                                         need_b ? sum_to(choose(pick, Tensor(), dy), b_shape) : Tensor()};
                  });
}

}  // namespace autograd
