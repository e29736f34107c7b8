#include "lectern/autograd/ops/masked_select.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/factories.h"
#include "lectern/autograd/graph.h"

namespace autograd {
namespace {

// With x viewed as [rows, inner] and `picked` the rows kept (ascending):
//   y[i, :] = x[picked[i], :];   dx[picked[i], :] = dy[i, :], 0 in the rows not picked
// (each row is picked at most once, so the backward copies rather than adds).
Tensor pick_rows(const Tensor& x, const std::vector<std::int64_t>& picked, std::int64_t inner, const Shape& y_shape) {
    Tensor y = Tensor::empty(y_shape, x.dtype());
    const auto row_bytes = static_cast<std::size_t>(inner) * dtype_size(x.dtype());
    const auto* px = static_cast<const char*>(x.raw_data());
    auto* py = static_cast<char*>(y.raw_data());
    for (std::size_t i = 0; i < picked.size(); ++i)
        std::memcpy(py + i * row_bytes, px + static_cast<std::size_t>(picked[i]) * row_bytes, row_bytes);
    return y;
}

Tensor place_rows(const Tensor& dy, const std::vector<std::int64_t>& picked, std::int64_t inner, const Shape& x_shape) {
    Tensor dx = zeros(x_shape, dy.dtype());
    const auto row_bytes = static_cast<std::size_t>(inner) * dtype_size(dy.dtype());
    const auto* pdy = static_cast<const char*>(dy.raw_data());
    auto* pdx = static_cast<char*>(dx.raw_data());
    for (std::size_t i = 0; i < picked.size(); ++i)
        std::memcpy(pdx + static_cast<std::size_t>(picked[i]) * row_bytes, pdy + i * row_bytes, row_bytes);
    return dx;
}

// y = the picked rows of x, recorded with their backward.
Tensor picked_rows(const char* op, const Tensor& x, std::vector<std::int64_t> picked, std::int64_t inner,
                   Shape y_shape) {
    Tensor y = pick_rows(x, picked, inner, y_shape);
    return record(op, {x}, y, [picked = std::move(picked), inner, x_shape = x.shape()](const Tensor& dy) {
        return std::vector{place_rows(dy, picked, inner, x_shape)};
    });
}

// The mask is int64, as masked_fill's; a comparison's (lt, gt, eq: 1 or 0 in the operands'
// dtype) is one .to(Dtype::int64) away, which the error says.
void check_mask(const char* op, const Tensor& x, const Tensor& mask) {
    check_floating(op, x);
    check_defined(op, mask);
    if (mask.dtype() != Dtype::int64)
        throw DtypeError(
            fmt::format("{}: mask must be int64 (nonzero keeps), got {} of shape {}; a comparison's "
                        "mask converts with .to(Dtype::int64)",
                        op, dtype_name(mask.dtype()), shape_str(mask.shape())));
}

}  // namespace

Tensor boolean_index(const Tensor& x, const Tensor& mask) {
    check_mask("x[mask]", x, mask);
    const Shape& xs = x.shape();
    const auto k = static_cast<std::size_t>(mask.dim());
    if (k > xs.size() || !std::equal(mask.shape().begin(), mask.shape().end(), xs.begin()))
        throw ShapeError(
            fmt::format("x[mask]: mask of shape {} must have the shape of x's leading dims, x is {}; "
                        "for a mask that broadcasts, use masked_select",
                        shape_str(mask.shape()), shape_str(xs)));
    const std::int64_t rows = mask.numel();
    const std::int64_t inner = numel(Shape(xs.begin() + static_cast<std::ptrdiff_t>(k), xs.end()));
    const std::int64_t* pm = mask.data<std::int64_t>();
    std::vector<std::int64_t> picked;
    for (std::int64_t r = 0; r < rows; ++r)
        if (pm[r] != 0) picked.push_back(r);
    Shape y_shape{static_cast<std::int64_t>(picked.size())};
    y_shape.insert(y_shape.end(), xs.begin() + static_cast<std::ptrdiff_t>(k), xs.end());
    return picked_rows("x[mask]", x, std::move(picked), inner, std::move(y_shape));
}

Tensor masked_select(const Tensor& x, const Tensor& mask) {
    check_mask("masked_select", x, mask);
    const Shape& xs = x.shape();
    if (broadcast_shapes("masked_select", mask.shape(), xs) != xs)
        throw ShapeError(fmt::format("masked_select: mask of shape {} does not broadcast to x's {}",
                                     shape_str(mask.shape()), shape_str(xs)));
    // Walk x's positions in row-major order; the mask's offset follows by its broadcast strides.
    const Shape strides = broadcast_strides(mask.shape(), xs);
    const std::int64_t* pm = mask.data<std::int64_t>();
    std::vector<std::int64_t> picked;
    Shape coord(xs.size(), 0);
    for (std::int64_t p = 0, n = x.numel(); p < n; ++p) {
        std::int64_t m = 0;
        for (std::size_t d = 0; d < xs.size(); ++d) m += coord[d] * strides[d];
        if (pm[m] != 0) picked.push_back(p);
        for (std::size_t d = xs.size(); d-- > 0;) {  // the next coordinate, the last dim fastest
            if (++coord[d] < xs[d]) break;
            coord[d] = 0;
        }
    }
    Shape y_shape{static_cast<std::int64_t>(picked.size())};
    return picked_rows("masked_select", x, std::move(picked), 1, std::move(y_shape));
}

}  // namespace autograd
