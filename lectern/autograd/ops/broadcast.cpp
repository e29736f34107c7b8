#include "lectern/autograd/ops/broadcast.h"

#include <algorithm>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/factories.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/kernels/broadcast_loop.h"
#include "lectern/autograd/parallel.h"

namespace autograd {
namespace {

// Whether `shape` is x's shape with only leading dims summed away (or kept as 1).
bool sums_leading_dims(const Shape& x, const Shape& shape) {
    auto first = std::find_if(shape.begin(), shape.end(), [](std::int64_t s) { return s != 1; });
    const auto kept = static_cast<std::size_t>(shape.end() - first);
    return kept <= x.size() && std::equal(first, shape.end(), x.end() - static_cast<std::ptrdiff_t>(kept));
}

}  // namespace

// y = x repeated to `shape`;  dx = sum_to(dy, x.shape)
Tensor broadcast_to(const Tensor& x, const Shape& shape) {
    check_floating("broadcast_to", x);
    if (broadcast_shapes("broadcast_to", x.shape(), shape) != shape)
        throw ShapeError(
            fmt::format("broadcast_to: shape {} cannot be broadcast to {}", shape_str(x.shape()), shape_str(shape)));
    Tensor y = Tensor::empty(shape, x.dtype());
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* src = x.data<T>();
        T* dst = y.data<T>();
        detail::parallel_for_each_broadcast_row(shape, broadcast_strides(x.shape(), shape), Shape(shape.size(), 0),
                                                [&](std::int64_t o, std::int64_t a, std::int64_t, std::int64_t len,
                                                    std::int64_t step, std::int64_t) {
                                                    for (std::int64_t i = 0; i < len; ++i)
                                                        dst[o + i] = src[a + i * step];
                                                });
    });
    Shape x_shape = x.shape();
    return record("broadcast_to", {x}, y, [x_shape](const Tensor& dy) { return std::vector{sum_to(dy, x_shape)}; });
}

// y = x summed over the dims where `shape` was broadcast;  dx = broadcast_to(dy, x.shape)
Tensor sum_to(const Tensor& x, const Shape& shape) {
    check_floating("sum_to", x);
    if (broadcast_shapes("sum_to", shape, x.shape()) != x.shape())
        throw ShapeError(
            fmt::format("sum_to: shape {} does not broadcast to {}", shape_str(shape), shape_str(x.shape())));
    if (shape == x.shape()) return x;
    Tensor y = zeros(shape, x.dtype());
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* src = x.data<T>();
        T* dst = y.data<T>();
        if (sums_leading_dims(x.shape(), shape)) {
            // A bias's gradient ([B, T, D] to [D]): x is [rows, D], and each column is summed
            // in row order by one thread, as the general loop below would.
            const std::int64_t D = y.numel(), rows = D == 0 ? 0 : x.numel() / D;
            parallel_for(D, rows, [&](std::int64_t begin, std::int64_t end) {
                for (std::int64_t r = 0; r < rows; ++r)
                    for (std::int64_t j = begin; j < end; ++j) dst[j] += src[r * D + j];
            });
            return;
        }
        detail::for_each_broadcast_row(x.shape(), broadcast_strides(shape, x.shape()), Shape(x.dim(), 0),
                                       [&](std::int64_t o, std::int64_t a, std::int64_t, std::int64_t len,
                                           std::int64_t step, std::int64_t) {
                                           if (step == 0) {
                                               T acc = 0;
                                               for (std::int64_t i = 0; i < len; ++i) acc += src[o + i];
                                               dst[a] += acc;
                                           } else {
                                               for (std::int64_t i = 0; i < len; ++i) dst[a + i] += src[o + i];
                                           }
                                       });
    });
    Shape x_shape = x.shape();
    return record("sum_to", {x}, y, [x_shape](const Tensor& dy) { return std::vector{broadcast_to(dy, x_shape)}; });
}

}  // namespace autograd
