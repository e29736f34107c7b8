#include "lectern/autograd/ops/masked_fill.h"

#include <cmath>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/kernels/broadcast_loop.h"

namespace autograd {
namespace {

// out = (mask != 0 ? value : x) over x's shape; with value 0 it is also the backward.
Tensor fill_where(const Tensor& x, const Tensor& mask, double value) {
    Tensor y = Tensor::empty(x.shape(), x.dtype());
    const std::int64_t* pm = mask.data<std::int64_t>();
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* p = x.data<T>();
        T* q = y.data<T>();
        const T v = static_cast<T>(value);
        detail::parallel_for_each_broadcast_row(x.shape(), Shape(x.dim(), 0),
                                                broadcast_strides(mask.shape(), x.shape()),
                                                [&](std::int64_t o, std::int64_t, std::int64_t im, std::int64_t len,
                                                    std::int64_t, std::int64_t ms) {
                                                    for (std::int64_t k = 0; k < len; ++k)
                                                        q[o + k] = pm[im + k * ms] ? v : p[o + k];
                                                });
    });
    return y;
}

}  // namespace

// y = value where mask != 0, x elsewhere;  dx = dy where mask == 0, else 0
Tensor masked_fill(const Tensor& x, const Tensor& mask, double value) {
    check_floating("masked_fill", x);
    check_dtype("masked_fill", mask, Dtype::int64, "mask");
    if (broadcast_shapes("masked_fill", mask.shape(), x.shape()) != x.shape())
        throw ShapeError(fmt::format("masked_fill: mask of shape {} does not broadcast to {}", shape_str(mask.shape()),
                                     shape_str(x.shape())));
    Tensor y = fill_where(x, mask, value);
    return record(
        "masked_fill", {x}, y, [mask](const Tensor& dy) { return std::vector{fill_where(dy, mask, 0.0)}; },
        std::isinf(value) ? AnomalyCheck::no_nan : AnomalyCheck::finite);  // -inf fills on purpose
}

}  // namespace autograd
