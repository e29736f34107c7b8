#include "lectern/autograd/ops/reduce.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/factories.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/ops/arithmetic.h"
#include "lectern/autograd/ops/broadcast.h"
#include "lectern/autograd/kernels/eight_way_sum.h"
#include "lectern/autograd/ops/reshape.h"
#include "lectern/autograd/ops/unary.h"
#include "lectern/autograd/parallel.h"

namespace autograd {
namespace {

Shape reduced_shape(const Shape& s, int d, bool keepdim) {
    Shape out = s;
    if (keepdim) out[d] = 1;
    else out.erase(out.begin() + d);
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

// Blocks of a fixed size summed apart (split over the threads), then the blocks' sums in
// order: the order of every addition is fixed by the size alone.
double squared_norm(const Tensor& x) {
    check_floating("squared_norm", x);
    constexpr std::int64_t kBlock = 1 << 14;
    const std::int64_t n = x.numel(), blocks = (n + kBlock - 1) / kBlock;
    std::vector<double> partial(static_cast<std::size_t>(blocks));
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* p = x.data<T>();
        parallel_for(blocks, kBlock, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t b = begin; b < end; ++b) {
                const T* q = p + b * kBlock;
                partial[static_cast<std::size_t>(b)] =
                    detail::eight_way_sum<double>(std::min(kBlock, n - b * kBlock),
                                                  [&](std::int64_t i) { return static_cast<double>(q[i]) * q[i]; });
            }
        });
    });
    double total = 0;
    for (double s : partial) total += s;
    return total;
}

// y = sum over `dim`;  dx = dy repeated along dim
Tensor sum(const Tensor& x, std::int64_t dim, bool keepdim) {
    check_floating("sum", x);
    int d = normalize_dim("sum", dim, x.dim());
    const AroundDim a = around_dim(x.shape(), d);
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
    return record("sum", {x}, y, [x_shape, d, keepdim](const Tensor& dy) {
        return std::vector{expand_back(dy, x_shape, d, keepdim)};
    });
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

// max and argmax over dim: the value and the index of the first maximum of each
// 1-D slice x[o, :, i] (x viewed as [outer, n, inner] around dim);
//   dx = dy at the arg-max, 0 elsewhere.

// Checks x and dim for max and argmax; returns dim in [0, x.dim()).
int check_max(const char* op, const Tensor& x, std::int64_t dim) {
    check_floating(op, x);
    int d = normalize_dim(op, dim, x.dim());
    if (x.size(d) == 0) throw ShapeError(fmt::format("{}: dim {} of {} is empty", op, dim, shape_str(x.shape())));
    return d;
}

std::vector<std::int64_t> argmax_slices(const Tensor& x, const AroundDim& a) {
    std::vector<std::int64_t> idx(static_cast<std::size_t>(a.outer * a.inner), 0);
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        for (std::int64_t o = 0; o < a.outer; ++o)
            for (std::int64_t i = 0; i < a.inner; ++i) {
                const T* slice = x.data<T>() + o * a.n * a.inner + i;
                std::int64_t best = 0;
                for (std::int64_t k = 1; k < a.n; ++k)
                    if (slice[k * a.inner] > slice[best * a.inner]) best = k;
                idx[o * a.inner + i] = best;
            }
    });
    return idx;
}

// y[o, i] = x[o, idx[o, i], i]
Tensor max_forward(const Tensor& x, const AroundDim& a, const std::vector<std::int64_t>& idx, const Shape& y_shape) {
    Tensor y = Tensor::empty(y_shape, x.dtype());
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* px = x.data<T>();
        T* py = y.data<T>();
        for (std::int64_t o = 0; o < a.outer; ++o)
            for (std::int64_t i = 0; i < a.inner; ++i)
                py[o * a.inner + i] = px[(o * a.n + idx[o * a.inner + i]) * a.inner + i];
    });
    return y;
}

// dx[o, idx[o, i], i] = dy[o, i], 0 elsewhere
Tensor max_backward(const Tensor& dy, const Shape& x_shape, const AroundDim& a, const std::vector<std::int64_t>& idx) {
    Tensor dx = zeros(x_shape, dy.dtype());
    dispatch_floating(dy.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* pdy = dy.data<T>();
        T* pdx = dx.data<T>();
        for (std::int64_t o = 0; o < a.outer; ++o)
            for (std::int64_t i = 0; i < a.inner; ++i)
                pdx[(o * a.n + idx[o * a.inner + i]) * a.inner + i] = pdy[o * a.inner + i];
    });
    return dx;
}

}  // namespace

Tensor max(const Tensor& x, std::int64_t dim, bool keepdim) {
    int d = check_max("max", x, dim);
    const AroundDim a = around_dim(x.shape(), d);
    auto idx = std::make_shared<const std::vector<std::int64_t>>(argmax_slices(x, a));
    Tensor y = max_forward(x, a, *idx, reduced_shape(x.shape(), d, keepdim));
    return record("max", {x}, y, [x_shape = x.shape(), a, idx](const Tensor& dy) {
        return std::vector{max_backward(dy, x_shape, a, *idx)};
    });
}

Tensor argmax(const Tensor& x, std::int64_t dim, bool keepdim) {
    int d = check_max("argmax", x, dim);
    std::vector<std::int64_t> idx = argmax_slices(x, around_dim(x.shape(), d));
    Tensor y = Tensor::empty(reduced_shape(x.shape(), d, keepdim), Dtype::int64);
    std::copy(idx.begin(), idx.end(), y.data<std::int64_t>());
    return y;
}

// y = -max(-x, dim): the first minimum is the first maximum of -x, and so is its gradient
Tensor min(const Tensor& x, std::int64_t dim, bool keepdim) {
    check_max("min", x, dim);
    return neg(max(neg(x), dim, keepdim));
}

Tensor argmin(const Tensor& x, std::int64_t dim, bool keepdim) {
    check_max("argmin", x, dim);
    NoGradGuard no_grad;
    return argmax(neg(x), dim, keepdim);
}

namespace {

// The dims of `dims` in [0, rank), largest first; ShapeError naming a repeated one.
std::vector<int> dims_descending(const char* op, const Shape& dims, std::int64_t rank) {
    std::vector<int> ds;
    for (std::int64_t d : dims) ds.push_back(normalize_dim(op, d, rank));
    std::sort(ds.rbegin(), ds.rend());
    if (std::adjacent_find(ds.begin(), ds.end()) != ds.end())
        throw ShapeError(fmt::format("{}: dims {} name dim {} twice", op, shape_str(dims),
                                     *std::adjacent_find(ds.begin(), ds.end())));
    return ds;
}

}  // namespace

// y = sum over each dim of dims in turn, the last first so that the others keep their places
Tensor sum(const Tensor& x, const Shape& dims, bool keepdim) {
    check_floating("sum", x);
    Tensor y = x;
    for (int d : dims_descending("sum", dims, x.dim())) y = sum(y, d, keepdim);
    return y;
}

// y = sum(x, dims) / (the product of their sizes)
Tensor mean(const Tensor& x, const Shape& dims, bool keepdim) {
    check_floating("mean", x);
    std::int64_t count = 1;
    for (int d : dims_descending("mean", dims, x.dim())) count *= x.size(d);
    if (count == 0)
        throw ShapeError(fmt::format("mean: dims {} of {} are empty", shape_str(dims), shape_str(x.shape())));
    return div(sum(x, dims, keepdim), static_cast<double>(count));
}

// y[o, i] = prod_k x[o, k, i];  dx[o, k, i] = dy[o, i] (prod_{j < k} x[o, j, i]) (prod_{j > k} x[o, j, i]),
// the products before and after k, so that a zero factor gives no 0 / 0
Tensor prod(const Tensor& x, std::int64_t dim, bool keepdim) {
    check_floating("prod", x);
    const int d = normalize_dim("prod", dim, x.dim());
    const AroundDim a = around_dim(x.shape(), d);
    Tensor y = ones(reduced_shape(x.shape(), d, keepdim), x.dtype());
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* px = x.data<T>();
        T* py = y.data<T>();
        for (std::int64_t o = 0; o < a.outer; ++o)
            for (std::int64_t k = 0; k < a.n; ++k)
                for (std::int64_t i = 0; i < a.inner; ++i) py[o * a.inner + i] *= px[(o * a.n + k) * a.inner + i];
    });
    return record("prod", {x}, y, [x = x.detach(), a, d, keepdim](const Tensor& dy_in) {
        Tensor dy = keepdim ? dy_in : unsqueeze(dy_in, d);  // [outer, 1, inner]
        Tensor dx = Tensor::empty(x.shape(), x.dtype());
        dispatch_floating(x.dtype(), [&](auto zero) {
            using T = decltype(zero);
            const T* px = x.data<T>();
            const T* pdy = dy.data<T>();
            T* pdx = dx.data<T>();
            for (std::int64_t o = 0; o < a.outer; ++o)
                for (std::int64_t i = 0; i < a.inner; ++i) {
                    auto at = [&](std::int64_t k) { return (o * a.n + k) * a.inner + i; };
                    T before = 1;  // prod_{j < k}, left to right into dx, then times prod_{j > k}
                    for (std::int64_t k = 0; k < a.n; ++k) pdx[at(k)] = before, before *= px[at(k)];
                    T after = pdy[o * a.inner + i];
                    for (std::int64_t k = a.n - 1; k >= 0; --k) pdx[at(k)] *= after, after *= px[at(k)];
                }
        });
        return std::vector{dx};
    });
}

// y = sum((x - mean x)^2) / (n - correction), from the ops: its gradient is theirs
Tensor var(const Tensor& x, std::int64_t dim, bool keepdim, std::int64_t correction) {
    check_floating("var", x);
    const int d = normalize_dim("var", dim, x.dim());
    const std::int64_t n = x.size(d);
    if (n - correction <= 0)
        throw ShapeError(
            fmt::format("var: {} elements along dim {} of {} leave no degrees of freedom after a "
                        "correction of {}",
                        n, dim, shape_str(x.shape()), correction));
    Tensor centred = x - mean(x, d, true);
    return div(sum(centred * centred, d, keepdim), static_cast<double>(n - correction));
}

Tensor var(const Tensor& x) {
    check_floating("var", x);
    return var(reshape(x, {-1}), 0);
}

// y = sqrt(var x)
Tensor std(const Tensor& x, std::int64_t dim, bool keepdim, std::int64_t correction) {
    return sqrt(var(x, dim, keepdim, correction));
}

Tensor std(const Tensor& x) { return sqrt(var(x)); }

}  // namespace autograd
