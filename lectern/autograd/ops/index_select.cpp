#include "lectern/autograd/ops/index_select.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/factories.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/parallel.h"

namespace autograd {
namespace {

// Rows picked by index along `dim` (the embedding lookup: rows of W_emb picked by
// token id, 002 "Text Token Embeddings"). With x viewed as [outer, n, inner] around
// dim and the index flattened to [count]:
//   y[o, i, :] = x[o, index[i], :]
// Backward, a scatter-add (a row picked twice gets both gradients):
//   dx[o, index[i], :] += dy[o, i, :]

Tensor index_select_forward(const Tensor& x, int d, const Tensor& index) {
    const AroundDim g = around_dim(x.shape(), d);
    const std::int64_t count = index.numel();
    const Shape& xs = x.shape();
    Shape y_shape(xs.begin(), xs.begin() + d);
    y_shape.insert(y_shape.end(), index.shape().begin(), index.shape().end());
    y_shape.insert(y_shape.end(), xs.begin() + d + 1, xs.end());
    Tensor y = Tensor::empty(y_shape, x.dtype());
    const std::int64_t* idx = index.data<std::int64_t>();
    const auto row_bytes = static_cast<std::int64_t>(dtype_size(x.dtype())) * g.inner;
    const auto* px = static_cast<const char*>(x.raw_data());
    auto* py = static_cast<char*>(y.raw_data());
    parallel_for(g.outer * count, g.inner, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t row = begin; row < end; ++row) {
            const std::int64_t o = row / count, i = row % count;
            std::memcpy(py + row * row_bytes, px + (o * g.n + idx[i]) * row_bytes, static_cast<std::size_t>(row_bytes));
        }
    });
    return y;
}

// The scatter-add into `into`: each row the index picks gets the sum of its rows of dy, from
// zero in the order of i, added once. Into zeros it is the backward below; into a leaf's
// existing grad (Node::add_to_grad) it gives grad + dx to the bit without building dx.
void index_select_scatter_add(const Tensor& dy, int d, const Tensor& index, Tensor& into) {
    const AroundDim g = around_dim(into.shape(), d);
    const std::int64_t count = index.numel();
    const std::int64_t* idx = index.data<std::int64_t>();
    std::vector<std::int64_t> order(static_cast<std::size_t>(count));
    std::iota(order.begin(), order.end(), std::int64_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return idx[a] < idx[b]; });
    dispatch_floating(dy.dtype(), [&](auto zero) {
        using T = decltype(zero);
        std::vector<T> sum(static_cast<std::size_t>(g.inner));
        for (std::int64_t o = 0; o < g.outer; ++o)
            for (std::int64_t a = 0, b = 0; a < count; a = b) {
                const std::int64_t row = idx[order[a]];
                std::fill(sum.begin(), sum.end(), T(0));
                for (b = a; b < count && idx[order[b]] == row; ++b) {
                    const T* dy_row = dy.data<T>() + (o * count + order[b]) * g.inner;
                    for (std::int64_t k = 0; k < g.inner; ++k) sum[k] += dy_row[k];
                }
                T* into_row = into.data<T>() + (o * g.n + row) * g.inner;
                for (std::int64_t k = 0; k < g.inner; ++k) into_row[k] += sum[k];
            }
    });
}

Tensor index_select_backward(const Tensor& dy, const Shape& x_shape, int d, const Tensor& index) {
    Tensor dx = zeros(x_shape, dy.dtype());
    index_select_scatter_add(dy, d, index, dx);
    return dx;
}

// Checks the arguments; returns dim in [0, x.dim()).
int check_index_select(const Tensor& x, std::int64_t dim, const Tensor& index) {
    check_defined("index_select", x);
    check_dtype("index_select", index, Dtype::int64, "index");
    int d = normalize_dim("index_select", dim, x.dim());
    const std::int64_t* idx = index.data<std::int64_t>();
    for (std::int64_t i = 0, n = x.size(d); i < index.numel(); ++i)
        if (idx[i] < 0 || idx[i] >= n)
            throw IndexError(fmt::format("index_select: index {} at position {} is outside [0, {}) for dim {} of {}",
                                         idx[i], i, n, d, shape_str(x.shape())));
    return d;
}

}  // namespace

Tensor index_select(const Tensor& x, std::int64_t dim, const Tensor& index) {
    int d = check_index_select(x, dim, index);
    Tensor y = index_select_forward(x, d, index);
    y = record("index_select", {x}, y, [x_shape = x.shape(), d, index](const Tensor& dy) {
        return std::vector{index_select_backward(dy, x_shape, d, index)};
    });
    if (const std::shared_ptr<Node>& node = y.impl()->grad_fn)
        node->add_to_grad = [d, index](const Tensor& dy, Tensor& grad) {
            index_select_scatter_add(dy, d, index, grad);
        };
    return y;
}

}  // namespace autograd
