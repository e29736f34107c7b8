#include "autograd/ops/reduce.h"

#include <fmt/format.h>

#include "autograd/graph.h"
#include "autograd/ops/arithmetic.h"
#include "autograd/ops/broadcast.h"
#include "autograd/ops/reshape.h"

namespace autograd {
namespace {

// x viewed as [outer, n, inner] around `dim`: the reduced axis is the middle one.
struct Around {
    std::int64_t outer = 1, n = 1, inner = 1;
};

Around around(const Tensor& x, int d) {
    Around a;
    const Shape& s = x.shape();
    for (int i = 0; i < d; ++i) a.outer *= s[i];
    a.n = s[d];
    for (std::size_t i = d + 1; i < s.size(); ++i) a.inner *= s[i];
    return a;
}

Shape reduced_shape(const Shape& s, int d, bool keepdim) {
    Shape out = s;
    if (keepdim)
        out[d] = 1;
    else
        out.erase(out.begin() + d);
    return out;
}

// dy of the reduced shape, as the keepdim shape, repeated along `dim`.
Tensor expand_back(const Tensor& dy, const Shape& x_shape, int d, bool keepdim) {
    Tensor g = keepdim ? dy : unsqueeze(dy, d);
    return broadcast_to(g, x_shape);
}

}  // namespace

// y = sum of all elements (shape []);  dx = dy repeated to x.shape
Tensor sum(const Tensor& x) {
    check_floating("sum", x);
    Tensor y = Tensor::empty({}, x.dtype());
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* p = x.data<T>();
        double acc = 0;  // accumulate in double: float32 sums of large tensors drift
        for (std::int64_t i = 0, n = x.numel(); i < n; ++i) acc += p[i];
        y.data<T>()[0] = static_cast<T>(acc);
    });
    Shape x_shape = x.shape();
    return record("sum", {x}, y, [x_shape](const Tensor& dy) { return std::vector{broadcast_to(dy, x_shape)}; });
}

// y = sum over `dim`;  dx = dy repeated along dim
Tensor sum(const Tensor& x, std::int64_t dim, bool keepdim) {
    check_floating("sum", x);
    int d = normalize_dim("sum", dim, x.dim());
    Around a = around(x, d);
    Tensor y = zeros(reduced_shape(x.shape(), d, keepdim), x.dtype());
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* p = x.data<T>();
        T* q = y.data<T>();
        for (std::int64_t o = 0; o < a.outer; ++o)
            for (std::int64_t k = 0; k < a.n; ++k) {
                const T* row = p + (o * a.n + k) * a.inner;
                T* out = q + o * a.inner;
                for (std::int64_t i = 0; i < a.inner; ++i) out[i] += row[i];
            }
    });
    Shape x_shape = x.shape();
    return record("sum", {x}, y,
                  [x_shape, d, keepdim](const Tensor& dy) { return std::vector{expand_back(dy, x_shape, d, keepdim)}; });
}

// y = sum(x) / numel;  dx = dy / numel repeated
Tensor mean(const Tensor& x) {
    check_floating("mean", x);
    if (x.numel() == 0) throw ShapeError("mean: of an empty tensor");
    return div(sum(x), static_cast<double>(x.numel()));
}

// y = sum(x, dim) / x.size(dim)
Tensor mean(const Tensor& x, std::int64_t dim, bool keepdim) {
    check_floating("mean", x);
    int d = normalize_dim("mean", dim, x.dim());
    if (x.size(d) == 0) throw ShapeError(fmt::format("mean: dim {} of {} is empty", dim, shape_str(x.shape())));
    return div(sum(x, dim, keepdim), static_cast<double>(x.size(d)));
}

namespace {

// Index of the first maximum of each [outer, inner] lane along the middle axis.
std::vector<std::int64_t> argmax_lanes(const Tensor& x, const Around& a) {
    std::vector<std::int64_t> idx(static_cast<std::size_t>(a.outer * a.inner), 0);
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* p = x.data<T>();
        for (std::int64_t o = 0; o < a.outer; ++o)
            for (std::int64_t i = 0; i < a.inner; ++i) {
                const T* lane = p + o * a.n * a.inner + i;
                std::int64_t best = 0;
                for (std::int64_t k = 1; k < a.n; ++k)
                    if (lane[k * a.inner] > lane[best * a.inner]) best = k;
                idx[o * a.inner + i] = best;
            }
    });
    return idx;
}

}  // namespace

// y = max over `dim`;  dx = dy at the (first) arg-max, 0 elsewhere
Tensor max(const Tensor& x, std::int64_t dim, bool keepdim) {
    check_floating("max", x);
    int d = normalize_dim("max", dim, x.dim());
    Around a = around(x, d);
    if (a.n == 0) throw ShapeError(fmt::format("max: dim {} of {} is empty", dim, shape_str(x.shape())));
    auto idx = std::make_shared<std::vector<std::int64_t>>(argmax_lanes(x, a));
    Tensor y = Tensor::empty(reduced_shape(x.shape(), d, keepdim), x.dtype());
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* p = x.data<T>();
        T* q = y.data<T>();
        for (std::int64_t o = 0; o < a.outer; ++o)
            for (std::int64_t i = 0; i < a.inner; ++i)
                q[o * a.inner + i] = p[(o * a.n + (*idx)[o * a.inner + i]) * a.inner + i];
    });
    Shape x_shape = x.shape();
    return record("max", {x}, y, [x_shape, a, idx](const Tensor& dy) {
        Tensor dx = zeros(x_shape, dy.dtype());
        dispatch_floating(dy.dtype(), [&](auto zero) {
            using T = decltype(zero);
            const T* g = dy.data<T>();
            T* out = dx.data<T>();
            for (std::int64_t o = 0; o < a.outer; ++o)
                for (std::int64_t i = 0; i < a.inner; ++i)
                    out[(o * a.n + (*idx)[o * a.inner + i]) * a.inner + i] = g[o * a.inner + i];
        });
        return std::vector{dx};
    });
}

// Index of the first maximum over `dim`, int64; not differentiable.
Tensor argmax(const Tensor& x, std::int64_t dim, bool keepdim) {
    check_floating("argmax", x);
    int d = normalize_dim("argmax", dim, x.dim());
    Around a = around(x, d);
    if (a.n == 0) throw ShapeError(fmt::format("argmax: dim {} of {} is empty", dim, shape_str(x.shape())));
    std::vector<std::int64_t> idx = argmax_lanes(x, a);
    Tensor y = Tensor::empty(reduced_shape(x.shape(), d, keepdim), Dtype::int64);
    std::copy(idx.begin(), idx.end(), y.data<std::int64_t>());
    return y;
}

}  // namespace autograd
