#include "lectern/autograd/ops/transpose.h"

#include <cstring>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/kernels/broadcast_loop.h"

namespace autograd {
namespace {

// y.shape[i] = x.shape[dims[i]], copied into y's contiguous layout. The
// innermost output dim is a strided (or, when it stays last, contiguous) run.
Tensor permute_copy(const Tensor& x, const std::vector<int>& dims) {
    const Shape& xs = x.shape();
    const std::size_t n = dims.size();
    Shape ys(n), src_strides(n);
    Shape xst = contiguous_strides(xs);
    for (std::size_t i = 0; i < n; ++i) {
        ys[i] = xs[dims[i]];
        src_strides[i] = xst[dims[i]];
    }
    Tensor y = Tensor::empty(ys, x.dtype());
    if (y.numel() == 0) return y;
    const std::size_t elem = dtype_size(x.dtype());
    const auto* src = static_cast<const char*>(x.raw_data());
    auto* dst = static_cast<char*>(y.raw_data());
    // Each output row, a run along the innermost output dim, read with that dim's source stride.
    const auto elem_size = static_cast<std::int64_t>(elem);
    detail::parallel_for_each_broadcast_row(ys, src_strides, Shape(n, 0),
                                            [&](std::int64_t out_off, std::int64_t off, std::int64_t, std::int64_t len,
                                                std::int64_t step, std::int64_t) {
                                                char* out = dst + out_off * elem_size;
                                                if (step == 1) {
                                                    std::memcpy(out, src + off * elem_size,
                                                                static_cast<std::size_t>(len) * elem);
                                                } else if (elem == 4) {
                                                    auto* o = reinterpret_cast<std::uint32_t*>(out);
                                                    const auto* s = reinterpret_cast<const std::uint32_t*>(src) + off;
                                                    for (std::int64_t i = 0; i < len; ++i) o[i] = s[i * step];
                                                } else {
                                                    auto* o = reinterpret_cast<std::uint64_t*>(out);
                                                    const auto* s = reinterpret_cast<const std::uint64_t*>(src) + off;
                                                    for (std::int64_t i = 0; i < len; ++i) o[i] = s[i * step];
                                                }
                                            });
    return y;
}

std::vector<int> check_permutation(const Tensor& x, const Shape& dims) {
    if (static_cast<std::int64_t>(dims.size()) != x.dim())
        throw ShapeError(
            fmt::format("permute: {} dims given for a tensor of shape {}", dims.size(), shape_str(x.shape())));
    std::vector<int> d(dims.size());
    std::vector<bool> seen(dims.size(), false);
    for (std::size_t i = 0; i < dims.size(); ++i) {
        d[i] = normalize_dim("permute", dims[i], x.dim());
        if (seen[d[i]])
            throw ValueError(fmt::format("permute: {} is not a permutation (dim {} repeats)", shape_str(dims), d[i]));
        seen[d[i]] = true;
    }
    return d;
}

}  // namespace

// y.shape[i] = x.shape[dims[i]];  dx = permute(dy, inverse(dims))
Tensor permute(const Tensor& x, const Shape& dims) {
    check_defined("permute", x);
    std::vector<int> d = check_permutation(x, dims);
    Tensor y = permute_copy(x, d);
    Shape inverse(d.size());
    for (std::size_t i = 0; i < d.size(); ++i) inverse[d[i]] = static_cast<std::int64_t>(i);
    return record("permute", {x}, y, [inverse](const Tensor& dy) { return std::vector{permute(dy, inverse)}; });
}

// Swaps dims d0 and d1;  dx = transpose(dy, d0, d1)
Tensor transpose(const Tensor& x, std::int64_t d0, std::int64_t d1) {
    check_defined("transpose", x);
    int a = normalize_dim("transpose", d0, x.dim()), b = normalize_dim("transpose", d1, x.dim());
    std::vector<int> d(static_cast<std::size_t>(x.dim()));
    for (std::size_t i = 0; i < d.size(); ++i) d[i] = static_cast<int>(i);
    std::swap(d[a], d[b]);
    Tensor y = permute_copy(x, d);
    return record("transpose", {x}, y, [a, b](const Tensor& dy) { return std::vector{transpose(dy, a, b)}; });
}

}  // namespace autograd
