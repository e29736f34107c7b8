#include "lectern/autograd/ops/concat.h"

#include <cstring>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/factories.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/ops/reshape.h"
#include "lectern/autograd/parallel.h"

namespace autograd {
namespace {

// Copies x[..., start:start+length, ...] (along d) into y, or y into that slab
// of x when `into_x`.
void copy_slab(const Tensor& x, const Tensor& y, int d, std::int64_t start, std::int64_t length, bool into_x) {
    const AroundDim a = around_dim(x.shape(), d);
    const auto elem = static_cast<std::int64_t>(dtype_size(x.dtype()));
    auto* px = static_cast<char*>(x.raw_data());
    auto* py = static_cast<char*>(y.raw_data());
    const std::int64_t row_x = a.n * a.inner * elem, row_y = length * a.inner * elem;
    parallel_for(a.outer, length * a.inner, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t o = begin; o < end; ++o) {
            char* slab_x = px + o * row_x + start * a.inner * elem;
            char* slab_y = py + o * row_y;
            if (into_x) std::memcpy(slab_x, slab_y, static_cast<std::size_t>(row_y));
            else std::memcpy(slab_y, slab_x, static_cast<std::size_t>(row_y));
        }
    });
}

// concat's output shape; ShapeError/DtypeError when the tensors do not fit together.
Shape check_concat(const std::vector<Tensor>& xs, int d) {
    const Tensor& first = xs[0];
    Shape out = first.shape();
    out[d] = 0;
    for (const Tensor& x : xs) {
        check_same_dtype("concat", first, x);
        Shape a = first.shape(), b = x.shape();
        if (a.size() == b.size()) a[d] = b[d];
        if (a != b)
            throw ShapeError(fmt::format("concat: shapes {} and {} differ off dim {}", shape_str(first.shape()),
                                         shape_str(x.shape()), d));
        out[d] += x.size(d);
    }
    return out;
}

}  // namespace

// y = [x_0, x_1, ...] joined along dim;  dx_i = narrow(dy, dim, offset_i, size_i)
Tensor concat(const std::vector<Tensor>& xs, std::int64_t dim) {
    if (xs.empty()) throw ValueError("concat: no tensors to join");
    for (const Tensor& x : xs) check_defined("concat", x);
    int d = normalize_dim("concat", dim, xs[0].dim());
    Tensor y = Tensor::empty(check_concat(xs, d), xs[0].dtype());
    std::vector<std::int64_t> offsets;
    std::int64_t offset = 0;
    for (const Tensor& x : xs) {
        offsets.push_back(offset);
        copy_slab(y, x, d, offset, x.size(d), /*into_x=*/true);
        offset += x.size(d);
    }
    return record("concat", xs, y, [xs, offsets, d](const Tensor& dy) {
        std::vector<Tensor> dx;
        for (std::size_t i = 0; i < xs.size(); ++i)
            dx.push_back(xs[i].requires_grad() ? narrow(dy, d, offsets[i], xs[i].size(d)) : Tensor());
        return dx;
    });
}

// y[..., i, ...] = xs[i];  dx_i = dy[..., i, ...] (concat's backward, then unsqueeze's)
Tensor stack(const std::vector<Tensor>& xs, std::int64_t dim) {
    if (xs.empty()) throw ValueError("stack: no tensors to join");
    for (const Tensor& x : xs) {
        check_defined("stack", x);
        if (x.shape() != xs[0].shape())
            throw ShapeError(fmt::format("stack: shapes {} and {} differ (stack joins tensors of one shape)",
                                         shape_str(xs[0].shape()), shape_str(x.shape())));
    }
    const int d = normalize_dim("stack", dim, xs[0].dim() + 1);
    std::vector<Tensor> slices;
    for (const Tensor& x : xs) slices.push_back(unsqueeze(x, d));
    return concat(slices, d);
}

// y = x[..., start:start+length, ...] along dim;  dx = zeros with dy placed there
Tensor narrow(const Tensor& x, std::int64_t dim, std::int64_t start, std::int64_t length) {
    check_defined("narrow", x);
    int d = normalize_dim("narrow", dim, x.dim());
    if (start < 0 || length < 0 || start + length > x.size(d))
        throw IndexError(fmt::format("narrow: [{}, {}) is outside dim {} of size {} in {}", start, start + length, d,
                                     x.size(d), shape_str(x.shape())));
    Shape out = x.shape();
    out[d] = length;
    Tensor y = Tensor::empty(out, x.dtype());
    copy_slab(x, y, d, start, length, /*into_x=*/false);
    Shape x_shape = x.shape();
    return record("narrow", {x}, y, [x_shape, d, start, length](const Tensor& dy) {
        Tensor dx = zeros(x_shape, dy.dtype());
        copy_slab(dx, dy, d, start, length, /*into_x=*/true);
        return std::vector{dx};
    });
}

}  // namespace autograd
