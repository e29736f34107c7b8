#include "lectern/autograd/ops/topk.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/ops/gather.h"

namespace autograd {
namespace {

// indices[o, r, i] = the position along dim of the r-th largest (or smallest) x[o, :, i].
// The order is total (NaN above every number, ties by position), so the sort is well defined
// whatever the values.
Tensor topk_indices(const Tensor& x, int d, std::int64_t k, bool largest) {
    const AroundDim a = around_dim(x.shape(), d);
    Shape shape = x.shape();
    shape[static_cast<std::size_t>(d)] = k;
    Tensor indices = Tensor::empty(shape, Dtype::int64);
    std::int64_t* out = indices.data<std::int64_t>();
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* px = x.data<T>();
        std::vector<std::int64_t> order(static_cast<std::size_t>(a.n));
        for (std::int64_t o = 0; o < a.outer; ++o)
            for (std::int64_t i = 0; i < a.inner; ++i) {
                const T* row = px + o * a.n * a.inner + i;          // row[j * inner] is x[o, j, i]
                auto first = [&](std::int64_t p, std::int64_t q) {  // whether x at p comes before x at q
                    const T u = row[p * a.inner], v = row[q * a.inner];
                    if (std::isnan(u) != std::isnan(v)) return largest ? std::isnan(u) : std::isnan(v);
                    if (std::isnan(u) || u == v) return p < q;
                    return largest ? u > v : u < v;
                };
                std::iota(order.begin(), order.end(), std::int64_t{0});
                std::partial_sort(order.begin(), order.begin() + k, order.end(), first);
                for (std::int64_t r = 0; r < k; ++r)
                    out[(o * k + r) * a.inner + i] = order[static_cast<std::size_t>(r)];
            }
    });
    return indices;
}

}  // namespace

TopK topk(const Tensor& x, std::int64_t k, std::int64_t dim, bool largest) {
    check_floating("topk", x);
    const int d = normalize_dim("topk", dim, x.dim());
    if (k < 0 || k > x.size(d))
        throw ValueError(fmt::format("topk: k = {} is outside [0, {}], the size of dim {} of {}", k, x.size(d), d,
                                     shape_str(x.shape())));
    Tensor indices = topk_indices(x, d, k, largest);
    return {gather(x, d, indices), indices};
}

}  // namespace autograd
