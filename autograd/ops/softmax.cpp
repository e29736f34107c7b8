#include "autograd/ops/softmax.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "autograd/graph.h"
#include "autograd/ops/broadcast_loop.h"

namespace autograd {
namespace {

// x viewed as [outer, n, inner] around the softmax dim; lane (o, i) is the
// strided vector x[o, :, i].
struct Lanes {
    std::int64_t outer = 1, n = 1, inner = 1;
};

Lanes lanes_of(const Tensor& x, int d) {
    Lanes l;
    const Shape& s = x.shape();
    for (int i = 0; i < d; ++i) l.outer *= s[i];
    l.n = s[d];
    for (std::size_t i = d + 1; i < s.size(); ++i) l.inner *= s[i];
    return l;
}

// Calls fn(offset, stride) for each lane.
template <class Fn>
void for_each_lane(const Lanes& l, Fn fn) {
    for (std::int64_t o = 0; o < l.outer; ++o)
        for (std::int64_t i = 0; i < l.inner; ++i) fn(o * l.n * l.inner + i, l.inner);
}

// Forward of softmax (log = false) or log-softmax (log = true) along each lane:
// subtract the lane max so exp never overflows.
Tensor softmax_forward(const Tensor& x, const Lanes& l, bool log) {
    Tensor y = Tensor::empty(x.shape(), x.dtype());
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* p = x.data<T>();
        T* q = y.data<T>();
        for_each_lane(l, [&](std::int64_t off, std::int64_t s) {
            T m = p[off];
            for (std::int64_t k = 1; k < l.n; ++k) m = std::max(m, p[off + k * s]);
            T total = 0;
            for (std::int64_t k = 0; k < l.n; ++k) {
                T e = std::exp(p[off + k * s] - m);
                q[off + k * s] = e;
                total += e;
            }
            if (log) {
                T lse = m + std::log(total);
                for (std::int64_t k = 0; k < l.n; ++k) q[off + k * s] = p[off + k * s] - lse;
            } else {
                T inv = 1 / total;
                for (std::int64_t k = 0; k < l.n; ++k) q[off + k * s] *= inv;
            }
        });
    });
    return y;
}

}  // namespace

// y = exp(x - max x) / sum exp(x - max x);  dx = y (dy - sum(dy y, dim))
Tensor softmax(const Tensor& x, std::int64_t dim) {
    check_floating("softmax", x);
    int d = normalize_dim("softmax", dim, x.dim());
    Lanes l = lanes_of(x, d);
    Tensor y = softmax_forward(x, l, false);
    Tensor y_value = y.detach();
    return record("softmax", {x}, y, [y_value, l](const Tensor& dy) {
        Tensor dx = Tensor::empty(dy.shape(), dy.dtype());
        dispatch_floating(dy.dtype(), [&](auto zero) {
            using T = decltype(zero);
            const T* g = dy.data<T>();
            const T* p = y_value.data<T>();
            T* q = dx.data<T>();
            for_each_lane(l, [&](std::int64_t off, std::int64_t s) {
                T dot = 0;
                for (std::int64_t k = 0; k < l.n; ++k) dot += g[off + k * s] * p[off + k * s];
                for (std::int64_t k = 0; k < l.n; ++k) q[off + k * s] = p[off + k * s] * (g[off + k * s] - dot);
            });
        });
        return std::vector{dx};
    });
}

// y = x - max x - log sum exp(x - max x);  dx = dy - exp(y) sum(dy, dim)
Tensor log_softmax(const Tensor& x, std::int64_t dim) {
    check_floating("log_softmax", x);
    int d = normalize_dim("log_softmax", dim, x.dim());
    Lanes l = lanes_of(x, d);
    Tensor y = softmax_forward(x, l, true);
    Tensor y_value = y.detach();
    return record("log_softmax", {x}, y, [y_value, l](const Tensor& dy) {
        Tensor dx = Tensor::empty(dy.shape(), dy.dtype());
        dispatch_floating(dy.dtype(), [&](auto zero) {
            using T = decltype(zero);
            const T* g = dy.data<T>();
            const T* p = y_value.data<T>();
            T* q = dx.data<T>();
            for_each_lane(l, [&](std::int64_t off, std::int64_t s) {
                T total = 0;
                for (std::int64_t k = 0; k < l.n; ++k) total += g[off + k * s];
                for (std::int64_t k = 0; k < l.n; ++k) q[off + k * s] = g[off + k * s] - std::exp(p[off + k * s]) * total;
            });
        });
        return std::vector{dx};
    });
}

// P = softmax(M + scale * S) over the last dim, M = -inf where mask == 0
// (002 "causal masking": P = softmax(M + QK^T / sqrt(D_K)));
// dS = scale * P (dP - sum(dP P, -1)); a fully masked row gives P = 0, dS = 0.
Tensor masked_softmax(const Tensor& scores, const Tensor& mask, double scale) {
    check_floating("masked_softmax", scores);
    check_dtype("masked_softmax", mask, Dtype::int64, "mask");
    if (scores.dim() == 0) throw ShapeError("masked_softmax: scores must have at least 1 dim, got shape []");
    if (broadcast_shapes("masked_softmax", mask.shape(), scores.shape()) != scores.shape())
        throw ShapeError(fmt::format("masked_softmax: mask of shape {} does not broadcast to scores {}",
                                     shape_str(mask.shape()), shape_str(scores.shape())));
    const Shape& s = scores.shape();
    Tensor p = Tensor::empty(s, scores.dtype());
    const std::int64_t* pm = mask.data<std::int64_t>();
    dispatch_floating(scores.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* x = scores.data<T>();
        T* y = p.data<T>();
        const T sc = static_cast<T>(scale);
        // Rows of S with the mask's matching row (step 0 where it broadcasts).
        detail::for_each_broadcast_row(
            s, Shape(s.size(), 0), broadcast_strides(mask.shape(), s),
            [&](std::int64_t o, std::int64_t, std::int64_t im, std::int64_t len, std::int64_t, std::int64_t ms) {
                T m = -std::numeric_limits<T>::infinity();
                for (std::int64_t k = 0; k < len; ++k)
                    if (pm[im + k * ms]) m = std::max(m, sc * x[o + k]);
                if (m == -std::numeric_limits<T>::infinity()) {  // every key masked
                    for (std::int64_t k = 0; k < len; ++k) y[o + k] = 0;
                    return;
                }
                T total = 0;
                for (std::int64_t k = 0; k < len; ++k) {
                    T e = pm[im + k * ms] ? std::exp(sc * x[o + k] - m) : T(0);
                    y[o + k] = e;
                    total += e;
                }
                T inv = 1 / total;
                for (std::int64_t k = 0; k < len; ++k) y[o + k] *= inv;
            });
    });
    Tensor p_value = p.detach();
    return record("masked_softmax", {scores}, p, [p_value, scale](const Tensor& dp) {
        Tensor ds = Tensor::empty(dp.shape(), dp.dtype());
        const std::int64_t len = dp.size(-1), rows = len == 0 ? 0 : dp.numel() / len;
        dispatch_floating(dp.dtype(), [&](auto zero) {
            using T = decltype(zero);
            const T* g = dp.data<T>();
            const T* y = p_value.data<T>();
            T* q = ds.data<T>();
            const T sc = static_cast<T>(scale);
            for (std::int64_t r = 0; r < rows; ++r) {
                const T* gr = g + r * len;
                const T* yr = y + r * len;
                T* qr = q + r * len;
                T dot = 0;
                for (std::int64_t k = 0; k < len; ++k) dot += gr[k] * yr[k];
                for (std::int64_t k = 0; k < len; ++k) qr[k] = sc * yr[k] * (gr[k] - dot);
            }
        });
        return std::vector{ds};
    });
}

}  // namespace autograd
