#include "lectern/autograd/ops/conv2d.h"

#include <array>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/kernels/conv2d_gemm.h"
#include "lectern/autograd/parallel.h"
#include "lectern/autograd/reference/conv2d.h"

namespace autograd {
namespace {

using reference::Conv2dShape;

// y[n, o, i, j] = b[o] + sum_{c, u, v} w[o, c, u, v] x[n, c, i s + u - p, j s + v - p]
// Backward:
//   dx[n, c, i s + u - p, j s + v - p] += w[o, c, u, v] dy[n, o, i, j]
//   dw[o, c, u, v] = sum_{n, i, j} dy[n, o, i, j] x[n, c, i s + u - p, j s + v - p],  db[o] = sum_{n, i, j} dy
// float64 runs reference::conv2d and reference::conv2d_backward (reference/conv2d.h), the
// equations as loops; float32 runs kernels/conv2d_gemm.h, one GEMM per image, the images split
// over the threads. Each image writes its own y and dx; dw and db are summed over the images
// by parallel_sums, in parts set by the shapes alone, so no result depends on the threads.

Conv2dShape shape_of(const char* op, const Tensor& x, const Tensor& w, const Tensor& b, std::int64_t stride,
                     std::int64_t padding) {
    check_floating(op, x);
    check_same_dtype(op, x, w);
    if (b.defined()) check_same_dtype(op, x, b);
    if (x.dim() != 4 || w.dim() != 4 || w.size(1) != x.size(1) ||
        (b.defined() && (b.dim() != 1 || b.size(0) != w.size(0))))
        throw ShapeError(
            fmt::format("{}: needs x [B, C, H, W], weight [O, C, kh, kw] and bias [O] agreeing on C and O, "
                        "got x {}, weight {}, bias {}",
                        op, shape_str(x.shape()), shape_str(w.shape()), b.defined() ? shape_str(b.shape()) : "none"));
    // Padding as wide as the kernel would add outputs that see nothing but zeros.
    if (stride <= 0 || padding < 0 || w.size(0) <= 0 || w.size(1) <= 0 || w.size(2) <= padding || w.size(3) <= padding)
        throw ValueError(
            fmt::format("{}: needs stride > 0, 0 <= padding < kernel and a weight of positive sizes, got "
                        "stride {}, padding {}, weight {}",
                        op, stride, padding, shape_str(w.shape())));
    const Conv2dShape s{x.size(0), x.size(1), x.size(2), x.size(3), w.size(0), w.size(2), w.size(3), stride, padding};
    if (s.H + 2 * padding < s.kh || s.W + 2 * padding < s.kw)
        throw ShapeError(fmt::format("{}: the kernel {}x{} is larger than the padded image {}x{} (x {}, padding {})",
                                     op, s.kh, s.kw, s.H + 2 * padding, s.W + 2 * padding, shape_str(x.shape()),
                                     padding));
    return s;
}

template <class T>
void forward(const T* x, const T* w, const T* b, const Conv2dShape& s, T* y) {
    if constexpr (std::is_same_v<T, double>) {
        reference::conv2d(x, w, b, s, y);
    } else {
        const std::int64_t K = s.C * s.kh * s.kw, P = s.Ho() * s.Wo();
        parallel_for(s.B, s.O * K * P / 8 + K * P, [&](std::int64_t n0, std::int64_t n1) {
            std::vector<T> cols(static_cast<std::size_t>(K * P));
            for (std::int64_t n = n0; n < n1; ++n)
                detail::conv2d_image(x + n * s.C * s.H * s.W, w, b, s, cols.data(), y + n * s.O * P);
        });
    }
}

template <class T>
void backward(const T* dy, const T* x, const T* w, const Conv2dShape& s, T* dx, T* dw, T* db) {
    if constexpr (std::is_same_v<T, double>) {
        reference::conv2d_backward(dy, x, w, s, dx, dw, db);
    } else {
        const std::int64_t K = s.C * s.kh * s.kw, P = s.Ho() * s.Wo();
        const std::array<PartSums<T>, 2> sums{{{dw, dw ? s.O * K : 0}, {db, db ? s.O : 0}}};
        parallel_sums(s.B, s.O * K * P / 4 + 2 * K * P, sums,
                      [&](const std::array<T*, 2>& part, std::int64_t n0, std::int64_t n1) {
                          std::vector<T> cols(static_cast<std::size_t>(K * P)), dcols(static_cast<std::size_t>(K * P));
                          for (std::int64_t n = n0; n < n1; ++n)
                              detail::conv2d_image_backward(dy + n * s.O * P, x + n * s.C * s.H * s.W, w, s,
                                                            cols.data(), dcols.data(),
                                                            dx ? dx + n * s.C * s.H * s.W : nullptr,
                                                            dw ? part[0] : nullptr, db ? part[1] : nullptr);
                      });
    }
}

}  // namespace

Tensor conv2d(const Tensor& x, const Tensor& weight, const Tensor& bias, std::int64_t stride, std::int64_t padding) {
    const Conv2dShape s = shape_of("conv2d", x, weight, bias, stride, padding);
    Tensor y = Tensor::empty({s.B, s.O, s.Ho(), s.Wo()}, x.dtype());
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        forward(x.data<T>(), weight.data<T>(), bias.defined() ? bias.data<T>() : nullptr, s, y.data<T>());
    });
    std::vector<Tensor> inputs{x, weight};
    if (bias.defined()) inputs.push_back(bias);
    return record("conv2d", inputs, y, [x, weight, bias, s](const Tensor& dy) {
        const bool want_x = x.requires_grad(), want_w = weight.requires_grad(),
                   want_b = bias.defined() && bias.requires_grad();
        Tensor dx = want_x ? Tensor::empty(x.shape(), dy.dtype()) : Tensor();
        Tensor dw = want_w ? Tensor::empty(weight.shape(), dy.dtype()) : Tensor();
        Tensor db = want_b ? Tensor::empty(bias.shape(), dy.dtype()) : Tensor();
        dispatch_floating(dy.dtype(), [&](auto zero) {
            using T = decltype(zero);
            backward(dy.data<T>(), x.data<T>(), weight.data<T>(), s, want_x ? dx.data<T>() : nullptr,
                     want_w ? dw.data<T>() : nullptr, want_b ? db.data<T>() : nullptr);
        });
        std::vector<Tensor> grads{dx, dw};
        if (bias.defined()) grads.push_back(db);
        return grads;
    });
}

}  // namespace autograd
