#include "lectern/autograd/ops/conv1d.h"

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/ops/linear.h"
#include "lectern/autograd/ops/reshape.h"
#include "lectern/autograd/parallel.h"

namespace autograd {
namespace {

// windows[b, t, j, :] = x[b, t + j r - left, :] (zeros outside), one (b, t) row per index.
template <class T>
void gather_windows(const T* x, T* w, std::int64_t B, std::int64_t len, std::int64_t C, std::int64_t k, std::int64_t r,
                    std::int64_t left) {
    parallel_for(B * len, k * C, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t row = begin; row < end; ++row) {
            const std::int64_t b = row / len, t = row % len;
            for (std::int64_t j = 0; j < k; ++j) {
                const std::int64_t s = t + j * r - left;
                T* out = w + (row * k + j) * C;
                const bool inside = s >= 0 && s < len;
                for (std::int64_t c = 0; c < C; ++c) out[c] = inside ? x[(b * len + s) * C + c] : T(0);
            }
        }
    });
}

// dx[b, s, :] = sum_j dwindows[b, s - j r + left, j, :], taps in order j = 0, 1, ...: each
// index writes only its own row, so no sum depends on how the rows are split.
template <class T>
void scatter_windows(const T* dw, T* dx, std::int64_t B, std::int64_t len, std::int64_t C, std::int64_t k,
                     std::int64_t r, std::int64_t left) {
    parallel_for(B * len, k * C, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t row = begin; row < end; ++row) {
            const std::int64_t b = row / len, s = row % len;
            T* out = dx + row * C;
            for (std::int64_t c = 0; c < C; ++c) out[c] = T(0);
            for (std::int64_t j = 0; j < k; ++j) {
                const std::int64_t t = s - j * r + left;
                if (t < 0 || t >= len) continue;
                const T* in = dw + ((b * len + t) * k + j) * C;
                for (std::int64_t c = 0; c < C; ++c) out[c] += in[c];
            }
        }
    });
}

// (kernel - 1) dilation, the positions a window spans, for kernel > 0 and dilation > 0;
// ValueError past 2^62, where a tap's position t + j r - left would no longer fit in int64.
std::int64_t window_span(const char* op, std::int64_t kernel, std::int64_t dilation) {
    constexpr std::int64_t kMost = std::int64_t{1} << 62;
    if (kernel - 1 > kMost / dilation)
        throw ValueError(
            fmt::format("{}: kernel {} with dilation {} spans more than 2^62 positions", op, kernel, dilation));
    return (kernel - 1) * dilation;
}

}  // namespace

Tensor conv_windows(const Tensor& x, std::int64_t kernel, std::int64_t dilation, std::int64_t left) {
    check_floating("conv_windows", x);
    if (x.dim() != 3) throw ShapeError(fmt::format("conv_windows: x must be [B, T, C], got {}", shape_str(x.shape())));
    if (kernel <= 0 || dilation <= 0 || left < 0 || left > window_span("conv_windows", kernel, dilation))
        throw ValueError(
            fmt::format("conv_windows: needs kernel > 0, dilation > 0 and 0 <= left <= (kernel - 1) "
                        "dilation, got kernel {}, dilation {}, left {}",
                        kernel, dilation, left));
    const std::int64_t B = x.size(0), len = x.size(1), C = x.size(2);
    Tensor w = Tensor::empty({B, len, kernel, C}, x.dtype());
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        gather_windows(x.data<T>(), w.data<T>(), B, len, C, kernel, dilation, left);
    });
    const Shape x_shape = x.shape();
    return record("conv_windows", {x}, w, [x_shape, kernel, dilation, left](const Tensor& dw) {
        Tensor dx = Tensor::empty(x_shape, dw.dtype());
        dispatch_floating(dw.dtype(), [&](auto zero) {
            using T = decltype(zero);
            scatter_windows(dw.data<T>(), dx.data<T>(), x_shape[0], x_shape[1], x_shape[2], kernel, dilation, left);
        });
        return std::vector{dx};
    });
}

Tensor conv1d(const Tensor& x, const Tensor& weight, const Tensor& bias, std::int64_t dilation, ConvPadding padding) {
    check_floating("conv1d", x);
    check_floating("conv1d", weight);
    if (x.dim() != 3 || weight.dim() != 3 || weight.size(2) != x.size(2))
        throw ShapeError(fmt::format("conv1d: x [B, T, C] and weight [O, k, C] must agree on C, got x {} and weight {}",
                                     shape_str(x.shape()), shape_str(weight.shape())));
    const std::int64_t O = weight.size(0), k = weight.size(1), C = x.size(2);
    if (dilation <= 0) throw ValueError(fmt::format("conv1d: dilation must be positive, got {}", dilation));
    const std::int64_t span = k > 0 ? window_span("conv1d", k, dilation) : 0;
    const std::int64_t left = padding == ConvPadding::causal ? span : span / 2;
    Tensor windows = reshape(conv_windows(x, k, dilation, left), {x.size(0), x.size(1), k * C});
    return linear(windows, reshape(weight, {O, k * C}), bias);
}

}  // namespace autograd
