#include "lectern/autograd/ops/slice.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/factories.h"
#include "lectern/autograd/graph.h"

namespace autograd {
namespace {

// With x viewed as [outer, n, inner] around dim and y as [outer, count, inner]:
// y[o, k, :] = x[o, start + k step, :] (into_x false), or x[o, start + k step, :] = y[o, k, :].
void copy_strided(const Tensor& x, const Tensor& y, int d, std::int64_t start, std::int64_t step, bool into_x) {
    const AroundDim a = around_dim(x.shape(), d);
    const std::int64_t count = y.size(d);
    const auto row = static_cast<std::size_t>(a.inner) * dtype_size(x.dtype());
    auto* px = static_cast<char*>(x.raw_data());
    auto* py = static_cast<char*>(y.raw_data());
    for (std::int64_t o = 0; o < a.outer; ++o)
        for (std::int64_t k = 0; k < count; ++k) {
            char* in_x = px + static_cast<std::size_t>(o * a.n + start + k * step) * row;
            char* in_y = py + static_cast<std::size_t>(o * count + k) * row;
            if (into_x) std::memcpy(in_x, in_y, row);
            else std::memcpy(in_y, in_x, row);
        }
}

}  // namespace

// y[o, k, :] = x[o, start + k step, :];  dx[o, start + k step, :] = dy[o, k, :], 0 elsewhere
Tensor slice(const Tensor& x, std::int64_t dim, std::int64_t start, std::int64_t end, std::int64_t step) {
    check_defined("slice", x);
    const int d = normalize_dim("slice", dim, x.dim());
    if (step < 1) throw ValueError(fmt::format("slice: step {} must be positive", step));
    const std::int64_t n = x.size(d);
    auto clamp_index = [n](std::int64_t i) { return std::clamp(i < 0 ? i + n : i, std::int64_t{0}, n); };
    start = clamp_index(start), end = clamp_index(end);
    Shape shape = x.shape();
    shape[d] = end > start ? (end - start + step - 1) / step : 0;
    Tensor y = Tensor::empty(shape, x.dtype());
    copy_strided(x, y, d, start, step, /*into_x=*/false);
    return record("slice", {x}, y, [x_shape = x.shape(), d, start, step](const Tensor& dy) {
        Tensor dx = zeros(x_shape, dy.dtype());
        copy_strided(dx, dy, d, start, step, /*into_x=*/true);
        return std::vector{dx};
    });
}

}  // namespace autograd
