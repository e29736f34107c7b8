#include "lectern/autograd/ops/glu.h"

#include <cmath>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/parallel.h"
#include "lectern/autograd/shape.h"

namespace autograd {
namespace {

// x read as [outer, 2H, inner]: a = x[o, h, i], b = x[o, H + h, i]; y [outer, H, inner].
struct Halves {
    std::int64_t outer, H, inner;
};

template <class T>
T sigmoid_of(T v) {
    return T(1) / (T(1) + std::exp(-v));
}

// y = a sigmoid(b), one outer index per part.
template <class T>
void glu_forward(const T* x, const Halves& s, T* y) {
    const std::int64_t half = s.H * s.inner;
    parallel_for(s.outer, 2 * half, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t o = begin; o < end; ++o) {
            const T* a = x + o * 2 * half;
            const T* b = a + half;
            T* out = y + o * half;
            for (std::int64_t i = 0; i < half; ++i) out[i] = a[i] * sigmoid_of(b[i]);
        }
    });
}

// da = dy s and db = dy a s (1 - s), s = sigmoid(b), into dx's two halves.
template <class T>
void glu_backward(const T* dy, const T* x, const Halves& s, T* dx) {
    const std::int64_t half = s.H * s.inner;
    parallel_for(s.outer, 2 * half, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t o = begin; o < end; ++o) {
            const T* a = x + o * 2 * half;
            const T* b = a + half;
            const T* g = dy + o * half;
            T* da = dx + o * 2 * half;
            T* db = da + half;
            for (std::int64_t i = 0; i < half; ++i) {
                const T sb = sigmoid_of(b[i]);
                da[i] = g[i] * sb;
                db[i] = g[i] * a[i] * sb * (T(1) - sb);
            }
        }
    });
}

}  // namespace

Tensor glu(const Tensor& x, std::int64_t dim) {
    check_floating("glu", x);
    if (x.dim() == 0) throw ShapeError("glu: x must have at least one dim, got a 0-d tensor");
    const std::int64_t d = normalize_dim("glu", dim, x.dim());
    if (x.size(d) % 2 != 0)
        throw ShapeError(
            fmt::format("glu: dim {} of x {} must have an even size, to halve", dim, shape_str(x.shape())));
    const Shape& xs = x.shape();
    const Halves s{numel(Shape(xs.begin(), xs.begin() + d)), x.size(d) / 2, numel(Shape(xs.begin() + d + 1, xs.end()))};
    Shape y_shape = xs;
    y_shape[static_cast<std::size_t>(d)] = s.H;
    Tensor y = Tensor::empty(y_shape, x.dtype());
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        glu_forward(x.data<T>(), s, y.data<T>());
    });
    return record("glu", {x}, y, [x, s](const Tensor& dy) {
        Tensor dx = Tensor::empty(x.shape(), x.dtype());
        dispatch_floating(x.dtype(), [&](auto zero) {
            using T = decltype(zero);
            glu_backward(dy.data<T>(), x.data<T>(), s, dx.data<T>());
        });
        return std::vector{dx};
    });
}

}  // namespace autograd
