#include "lectern/autograd/ops/gather.h"

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/factories.h"
#include "lectern/autograd/graph.h"

namespace autograd {
namespace {

// Checks index against x (and src, when defined); returns dim in [0, rank).
int check_index(const char* op, const Tensor& x, std::int64_t dim, const Tensor& index, const Tensor& src) {
    check_floating(op, x);
    check_dtype(op, index, Dtype::int64, "index");
    if (src.defined()) check_same_dtype(op, x, src);
    const int d = normalize_dim(op, dim, x.dim());
    if (index.dim() != x.dim() || (src.defined() && src.dim() != x.dim()))
        throw ShapeError(fmt::format("{}: index {} must have the rank of x {}{}", op, shape_str(index.shape()),
                                     shape_str(x.shape()),
                                     src.defined() ? " and of src " + shape_str(src.shape()) : ""));
    for (int k = 0; k < x.dim(); ++k) {
        if ((k != d && index.size(k) > x.size(k)) || (src.defined() && index.size(k) > src.size(k)))
            throw ShapeError(
                fmt::format("{}: index {} is larger than {} {} along dim {}", op, shape_str(index.shape()),
                            src.defined() && index.size(k) > src.size(k) ? "src" : "x",
                            shape_str(src.defined() && index.size(k) > src.size(k) ? src.shape() : x.shape()), k));
    }
    const std::int64_t* idx = index.data<std::int64_t>();
    for (std::int64_t p = 0; p < index.numel(); ++p)
        if (idx[p] < 0 || idx[p] >= x.size(d))
            throw IndexError(fmt::format("{}: index entry {} is {}, outside [0, {}) of dim {} of {}", op, p, idx[p],
                                         x.size(d), d, shape_str(x.shape())));
    return d;
}

// Calls f(p, at, q) for each entry p of index (row-major): `at` the flat position in a tensor of
// shape `target` with the coordinates of p but index[p] along d, `q` the flat position of p's
// coordinates in a tensor of shape `other` (src or dy, at least index's size in every dim).
template <class F>
void for_each_entry(const Tensor& index, int d, const Shape& target, const Shape& other, F f) {
    const Shape& s = index.shape();
    const std::int64_t* idx = index.data<std::int64_t>();
    Shape coord(s.size(), 0);
    for (std::int64_t p = 0; p < index.numel(); ++p) {
        std::int64_t at = 0, q = 0;
        for (std::size_t k = 0; k < s.size(); ++k) {
            at = at * target[k] + (static_cast<int>(k) == d ? idx[p] : coord[k]);
            q = q * other[k] + coord[k];
        }
        f(p, at, q);
        for (std::size_t k = s.size(); k-- > 0;) {  // the next coordinate, the last dim fastest
            if (++coord[k] < s[k]) break;
            coord[k] = 0;
        }
    }
}

// into[at] (+)= from[q] over index's entries: scatter_add's and scatter's forward, gather's
// backward. With d = -1 no coordinate is replaced: `into` gets from's values at index's positions.
void place(Tensor& into, int d, const Tensor& index, const Tensor& from, bool add) {
    dispatch_floating(into.dtype(), [&](auto zero) {
        using T = decltype(zero);
        T* out = into.data<T>();
        const T* in = from.data<T>();
        for_each_entry(index, d, into.shape(), from.shape(),
                       [&](std::int64_t, std::int64_t at, std::int64_t q) { out[at] = add ? out[at] + in[q] : in[q]; });
    });
}

// y[p] = from[at] over index's entries (y of index's shape): gather's forward, the backward of src.
Tensor pick(const Tensor& from, int d, const Tensor& index) {
    Tensor y = Tensor::empty(index.shape(), from.dtype());
    dispatch_floating(from.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* in = from.data<T>();
        T* out = y.data<T>();
        for_each_entry(index, d, from.shape(), index.shape(),
                       [&](std::int64_t p, std::int64_t at, std::int64_t) { out[p] = in[at]; });
    });
    return y;
}

// dsrc of scatter and scatter_add: gather(dy, d, index) at index's positions of src, 0 beyond
Tensor src_grad(const Tensor& dy, int d, const Tensor& index, const Shape& src_shape) {
    Tensor dsrc = zeros(src_shape, dy.dtype());
    place(dsrc, -1, index, pick(dy, d, index), /*add=*/false);
    return dsrc;
}

}  // namespace

// y[p] = x[index along d];  dx = zeros, then dx[index along d] += dy[p]
Tensor gather(const Tensor& x, std::int64_t dim, const Tensor& index) {
    const int d = check_index("gather", x, dim, index, Tensor());
    Tensor y = pick(x, d, index);
    return record("gather", {x}, y, [x_shape = x.shape(), d, index](const Tensor& dy) {
        Tensor dx = zeros(x_shape, dy.dtype());
        place(dx, d, index, dy, /*add=*/true);
        return std::vector{dx};
    });
}

// y = x; y[index along d] += src[p];  dx = dy, dsrc = gather(dy, dim, index) (zero beyond index)
Tensor scatter_add(const Tensor& x, std::int64_t dim, const Tensor& index, const Tensor& src) {
    const int d = check_index("scatter_add", x, dim, index, src);
    Tensor y = x.clone();
    place(y, d, index, src, /*add=*/true);
    return record("scatter_add", {x, src}, y, [d, index, src_shape = src.shape()](const Tensor& dy) {
        return std::vector{dy, src_grad(dy, d, index, src_shape)};
    });
}

// y = x; y[index along d] = src[p];  dx = dy with the written positions 0, dsrc = gather(dy, dim, index)
Tensor scatter(const Tensor& x, std::int64_t dim, const Tensor& index, const Tensor& src) {
    const int d = check_index("scatter", x, dim, index, src);
    Tensor y = x.clone();
    place(y, d, index, src, /*add=*/false);
    return record("scatter", {x, src}, y, [d, index, src_shape = src.shape()](const Tensor& dy) {
        Tensor dx = dy.clone();
        place(dx, d, index, zeros(index.shape(), dy.dtype()), /*add=*/false);
        return std::vector{dx, src_grad(dy, d, index, src_shape)};
    });
}

}  // namespace autograd
