#include "lectern/autograd/ops/softmax.h"

#include <cmath>
#include <type_traits>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/ops/arithmetic.h"
#include "lectern/autograd/kernels/broadcast_loop.h"
#include "lectern/autograd/ops/reduce.h"
#include "lectern/autograd/kernels/softmax_row.h"
#include "lectern/autograd/parallel.h"
#include "lectern/autograd/reference/softmax_row.h"

namespace autograd {
namespace {

// Calls fn(offset, stride) for each 1-D slice x[o, :, i] of x viewed as [outer, n, inner],
// split over the threads by o; each slice costs about `cost` per element.
template <class Fn>
void for_each_slice(const AroundDim& l, std::int64_t cost, Fn fn) {
    parallel_for(l.outer, l.n * l.inner * cost, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t o = begin; o < end; ++o)
            for (std::int64_t i = 0; i < l.inner; ++i) fn(o * l.n * l.inner + i, l.inner);
    });
}

// Along a dim, each stable: the max is subtracted so exp never overflows.
// Softmax (002 "The Weighting Coefficients P"):
//   y = exp(x - max x) / sum exp(x - max x),      dx = y (dy - sum(dy y))
// Log-softmax (001 "Generator"):
//   y = x - max x - log sum exp(x - max x),       dx = dy - exp(y) sum(dy)
Tensor softmax_forward(const Tensor& x, const AroundDim& l, bool log) {
    Tensor y = Tensor::empty(x.shape(), x.dtype());
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* px = x.data<T>();
        T* py = y.data<T>();
        for_each_slice(l, 8, [&](std::int64_t off, std::int64_t step) {
            const T* xs = px + off;
            T* ys = py + off;
            T max_x = xs[0];
            for (std::int64_t k = 1; k < l.n; ++k) max_x = std::max(max_x, xs[k * step]);
            T sum_exp = 0;
            for (std::int64_t k = 0; k < l.n; ++k) {
                ys[k * step] = std::exp(xs[k * step] - max_x);
                sum_exp += ys[k * step];
            }
            if (log) {
                const T lse = max_x + std::log(sum_exp);
                for (std::int64_t k = 0; k < l.n; ++k) ys[k * step] = xs[k * step] - lse;
            } else {
                const T inv = 1 / sum_exp;
                for (std::int64_t k = 0; k < l.n; ++k) ys[k * step] *= inv;
            }
        });
    });
    return y;
}

// Fused: log_softmax feeds the Transformer's generator at every position.
Tensor log_softmax_backward(const Tensor& dy, const Tensor& y, const AroundDim& l) {
    Tensor dx = Tensor::empty(dy.shape(), dy.dtype());
    dispatch_floating(dy.dtype(), [&](auto zero) {
        using T = decltype(zero);
        for_each_slice(l, 8, [&](std::int64_t off, std::int64_t step) {
            const T* dys = dy.data<T>() + off;
            const T* ys = y.data<T>() + off;
            T* dxs = dx.data<T>() + off;
            T sum_dy = 0;
            for (std::int64_t k = 0; k < l.n; ++k) sum_dy += dys[k * step];
            for (std::int64_t k = 0; k < l.n; ++k) dxs[k * step] = dys[k * step] - std::exp(ys[k * step]) * sum_dy;
        });
    });
    return dx;
}

}  // namespace

Tensor softmax(const Tensor& x, std::int64_t dim) {
    check_floating("softmax", x);
    int d = normalize_dim("softmax", dim, x.dim());
    Tensor y = softmax_forward(x, around_dim(x.shape(), d), /*log=*/false);
    return record("softmax", {x}, y, [y = y.detach(), d](const Tensor& dy) {
        return std::vector{y * (dy - sum(dy * y, d, /*keepdim=*/true))};
    });
}

Tensor log_softmax(const Tensor& x, std::int64_t dim) {
    check_floating("log_softmax", x);
    int d = normalize_dim("log_softmax", dim, x.dim());
    AroundDim l = around_dim(x.shape(), d);
    Tensor y = softmax_forward(x, l, /*log=*/true);
    return record("log_softmax", {x}, y,
                  [y = y.detach(), l](const Tensor& dy) { return std::vector{log_softmax_backward(dy, y, l)}; });
}

namespace {

// Attention's weights from the scores S, scaled and masked in one pass over each
// row (002 "causal masking"; 001's -inf, where its full post's code fills -1e9):
//   P = softmax(M + scale S) along the last dim,  M = -inf where mask == 0, else 0;
//   a row whose every score is masked gives P = 0 (not NaN).
// Backward, softmax's times the scale:
//   dS = scale P (dP - sum(dP P))
Tensor masked_softmax_forward(const Tensor& scores, const Tensor& mask, double scale) {
    const Shape& shape = scores.shape();
    Tensor p = Tensor::empty(shape, scores.dtype());
    const std::int64_t* keep = mask.data<std::int64_t>();
    dispatch_floating(scores.dtype(), [&](auto zero) {
        using T = decltype(zero);
        using Row = void(const T*, T*, std::int64_t, const std::int64_t*, std::int64_t, T);
        Row* row_fn = nullptr;  // the row function, chosen once: float64 runs the reference
        if constexpr (std::is_same_v<T, double>) row_fn = reference::masked_softmax_row<double>;
        else row_fn = detail::softmax_row_for(/*masked=*/true, shape.back(), static_cast<float>(scale));
        // Each row of S with the mask's matching row (step 0 where the mask broadcasts).
        detail::parallel_for_each_broadcast_row(
            shape, Shape(shape.size(), 0), broadcast_strides(mask.shape(), shape),
            [&](std::int64_t row, std::int64_t, std::int64_t mask_row, std::int64_t len, std::int64_t,
                std::int64_t mask_step) {
                row_fn(scores.data<T>() + row, p.data<T>() + row, len, keep + mask_row, mask_step,
                       static_cast<T>(scale));
            },
            /*cost=*/8);
    });
    return p;
}

// Fused: it runs on every [B, H, Tq, Tk] attention matrix, the model's largest tensor.
Tensor masked_softmax_backward(const Tensor& dp, const Tensor& p, double scale) {
    Tensor ds = Tensor::empty(dp.shape(), dp.dtype());
    const std::int64_t len = dp.size(-1), rows = len == 0 ? 0 : dp.numel() / len;
    dispatch_floating(dp.dtype(), [&](auto zero) {
        using T = decltype(zero);
        parallel_for(rows, 4 * len, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t r = begin; r < end; ++r) {
                const T *dpr = dp.data<T>() + r * len, *pr = p.data<T>() + r * len;
                T* dsr = ds.data<T>() + r * len;
                if constexpr (std::is_same_v<T, double>)
                    reference::masked_softmax_row_backward(dpr, pr, dsr, len, static_cast<T>(scale));
                else detail::masked_softmax_row_backward(dpr, pr, dsr, len, static_cast<T>(scale));
            }
        });
    });
    return ds;
}

void check_masked_softmax(const Tensor& scores, const Tensor& mask) {
    check_floating("masked_softmax", scores);
    check_dtype("masked_softmax", mask, Dtype::int64, "mask");
    if (scores.dim() == 0) throw ShapeError("masked_softmax: scores must have at least 1 dim, got shape []");
    if (broadcast_shapes("masked_softmax", mask.shape(), scores.shape()) != scores.shape())
        throw ShapeError(fmt::format("masked_softmax: mask of shape {} does not broadcast to scores {}",
                                     shape_str(mask.shape()), shape_str(scores.shape())));
}

}  // namespace

Tensor masked_softmax(const Tensor& scores, const Tensor& mask, double scale) {
    check_masked_softmax(scores, mask);
    Tensor p = masked_softmax_forward(scores, mask, scale);
    return record("masked_softmax", {scores}, p, [p = p.detach(), scale](const Tensor& dp) {
        return std::vector{masked_softmax_backward(dp, p, scale)};
    });
}

}  // namespace autograd
