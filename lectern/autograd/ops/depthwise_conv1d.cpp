#include "lectern/autograd/ops/depthwise_conv1d.h"

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/ops/reduce.h"
#include "lectern/autograd/ops/reshape.h"
#include "lectern/autograd/parallel.h"

namespace autograd {
namespace {

// y[b, t, c] = bias[c] + sum_j w[j, c] x[b, t + j - left, c], one (b, t) row per index.
template <class T>
void depthwise_forward(const T* x, const T* w, const T* bias, std::int64_t B, std::int64_t len, std::int64_t C,
                       std::int64_t k, std::int64_t left, T* y) {
    parallel_for(B * len, k * C, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t row = begin; row < end; ++row) {
            const std::int64_t b = row / len, t = row % len;
            T* out = y + row * C;
            for (std::int64_t c = 0; c < C; ++c) out[c] = bias ? bias[c] : T(0);
            for (std::int64_t j = 0; j < k; ++j) {
                const std::int64_t s = t + j - left;
                if (s < 0 || s >= len) continue;
                const T* in = x + (b * len + s) * C;
                const T* wj = w + j * C;
                for (std::int64_t c = 0; c < C; ++c) out[c] += wj[c] * in[c];
            }
        }
    });
}

// dx[b, s, c] = sum_j w[j, c] dy[b, s - j + left, c], one (b, s) row per index, taps in order.
template <class T>
void depthwise_backward_input(const T* dy, const T* w, std::int64_t B, std::int64_t len, std::int64_t C, std::int64_t k,
                              std::int64_t left, T* dx) {
    parallel_for(B * len, k * C, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t row = begin; row < end; ++row) {
            const std::int64_t b = row / len, s = row % len;
            T* out = dx + row * C;
            for (std::int64_t c = 0; c < C; ++c) out[c] = T(0);
            for (std::int64_t j = 0; j < k; ++j) {
                const std::int64_t t = s - j + left;
                if (t < 0 || t >= len) continue;
                const T* g = dy + (b * len + t) * C;
                const T* wj = w + j * C;
                for (std::int64_t c = 0; c < C; ++c) out[c] += wj[c] * g[c];
            }
        }
    });
}

// dw[j, c] = sum_{b, t} dy[b, t, c] x[b, t + j - left, c], one tap j per index, its sum over
// (b, t) in order, so no sum depends on the threads.
template <class T>
void depthwise_backward_weight(const T* dy, const T* x, std::int64_t B, std::int64_t len, std::int64_t C,
                               std::int64_t k, std::int64_t left, T* dw) {
    parallel_for(k, B * len * C, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t j = begin; j < end; ++j) {
            T* out = dw + j * C;
            for (std::int64_t c = 0; c < C; ++c) out[c] = T(0);
            for (std::int64_t b = 0; b < B; ++b)
                for (std::int64_t t = 0; t < len; ++t) {
                    const std::int64_t s = t + j - left;
                    if (s < 0 || s >= len) continue;
                    const T* g = dy + (b * len + t) * C;
                    const T* in = x + (b * len + s) * C;
                    for (std::int64_t c = 0; c < C; ++c) out[c] += g[c] * in[c];
                }
        }
    });
}

void check_depthwise(const Tensor& x, const Tensor& weight, const Tensor& bias) {
    check_floating("depthwise_conv1d", x);
    check_floating("depthwise_conv1d", weight);
    check_same_dtype("depthwise_conv1d", x, weight);
    if (x.dim() != 3 || weight.dim() != 2 || weight.size(1) != x.size(2) || weight.size(0) < 1)
        throw ShapeError(
            fmt::format("depthwise_conv1d: x [B, T, C] and weight [k, C] (k >= 1) must agree on C, got x "
                        "{} and weight {}",
                        shape_str(x.shape()), shape_str(weight.shape())));
    if (bias.defined()) {
        check_floating("depthwise_conv1d", bias);
        check_same_dtype("depthwise_conv1d", x, bias);
        if (bias.shape() != Shape{x.size(2)})
            throw ShapeError(fmt::format("depthwise_conv1d: bias {} must be [{}] for x {}", shape_str(bias.shape()),
                                         x.size(2), shape_str(x.shape())));
    }
}

}  // namespace

Tensor depthwise_conv1d(const Tensor& x, const Tensor& weight, const Tensor& bias, ConvPadding padding) {
    check_depthwise(x, weight, bias);
    const std::int64_t B = x.size(0), len = x.size(1), C = x.size(2), k = weight.size(0);
    const std::int64_t left = padding == ConvPadding::causal ? k - 1 : (k - 1) / 2;
    Tensor y = Tensor::empty(x.shape(), x.dtype());
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        depthwise_forward(x.data<T>(), weight.data<T>(), bias.defined() ? bias.data<T>() : nullptr, B, len, C, k, left,
                          y.data<T>());
    });
    std::vector<Tensor> inputs{x, weight};
    if (bias.defined()) inputs.push_back(bias);
    return record("depthwise_conv1d", inputs, y, [x, weight, bias, left](const Tensor& dy) {
        const std::int64_t B = x.size(0), len = x.size(1), C = x.size(2), k = weight.size(0);
        Tensor dx = x.requires_grad() ? Tensor::empty(x.shape(), x.dtype()) : Tensor();
        Tensor dw = weight.requires_grad() ? Tensor::empty(weight.shape(), x.dtype()) : Tensor();
        dispatch_floating(x.dtype(), [&](auto zero) {
            using T = decltype(zero);
            if (dx.defined())
                depthwise_backward_input(dy.data<T>(), weight.data<T>(), B, len, C, k, left, dx.data<T>());
            if (dw.defined()) depthwise_backward_weight(dy.data<T>(), x.data<T>(), B, len, C, k, left, dw.data<T>());
        });
        std::vector<Tensor> grads{dx, dw};
        // dbias[c] = sum_{b, t} dy[b, t, c]
        if (bias.defined()) grads.push_back(bias.requires_grad() ? sum(reshape(dy, {B * len, C}), 0) : Tensor());
        return grads;
    });
}

}  // namespace autograd
