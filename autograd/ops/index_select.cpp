#include "autograd/ops/index_select.h"

#include <cstring>

#include <fmt/format.h>

#include "autograd/graph.h"

namespace autograd {

// y[..., i..., ...] = x[..., index[i...], ...] along dim (the embedding lookup:
// rows of W_emb picked by token id, 002 "Text Token Embeddings");
// dx = scatter-add of dy into zeros like x (a row picked twice gets both).
Tensor index_select(const Tensor& x, std::int64_t dim, const Tensor& index) {
    check_defined("index_select", x);
    check_dtype("index_select", index, Dtype::int64, "index");
    int d = normalize_dim("index_select", dim, x.dim());
    const Shape& xs = x.shape();
    const std::int64_t* idx = index.data<std::int64_t>();
    const std::int64_t count = index.numel(), n = xs[d];
    for (std::int64_t i = 0; i < count; ++i)
        if (idx[i] < 0 || idx[i] >= n)
            throw IndexError(fmt::format("index_select: index {} at position {} is outside [0, {}) for dim {} of {}",
                                         idx[i], i, n, d, shape_str(xs)));

    Shape out(xs.begin(), xs.begin() + d);
    out.insert(out.end(), index.shape().begin(), index.shape().end());
    out.insert(out.end(), xs.begin() + d + 1, xs.end());
    Tensor y = Tensor::empty(out, x.dtype());

    std::int64_t outer = 1, inner = 1;
    for (int i = 0; i < d; ++i) outer *= xs[i];
    for (std::size_t i = d + 1; i < xs.size(); ++i) inner *= xs[i];
    const auto elem = static_cast<std::int64_t>(dtype_size(x.dtype()));
    const auto* px = static_cast<const char*>(x.raw_data());
    auto* py = static_cast<char*>(y.raw_data());
    const std::int64_t slab = inner * elem;
    for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t i = 0; i < count; ++i)
            std::memcpy(py + (o * count + i) * slab, px + (o * n + idx[i]) * slab, static_cast<std::size_t>(slab));

    Shape x_shape = xs;
    return record("index_select", {x}, y, [x_shape, index, outer, inner, count, n](const Tensor& dy) {
        Tensor dx = zeros(x_shape, dy.dtype());
        const std::int64_t* ix = index.data<std::int64_t>();
        dispatch_floating(dy.dtype(), [&](auto zero) {
            using T = decltype(zero);
            const T* g = dy.data<T>();
            T* out = dx.data<T>();
            for (std::int64_t o = 0; o < outer; ++o)
                for (std::int64_t i = 0; i < count; ++i) {
                    const T* src = g + (o * count + i) * inner;
                    T* dst = out + (o * n + ix[i]) * inner;
                    for (std::int64_t k = 0; k < inner; ++k) dst[k] += src[k];
                }
        });
        return std::vector{dx};
    });
}

}  // namespace autograd
