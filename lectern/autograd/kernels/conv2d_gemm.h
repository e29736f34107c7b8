#pragma once
// reference::conv2d (reference/conv2d.h) as one GEMM per image, the way float32 runs it. The
// image's windows are unrolled into the columns of a matrix (im2col),
//   cols[(c kh + u) kw + v, i Wo + j] = x[c, i s + u - p, j s + v - p]   (0 in the padding),
// so that the image's output is y [O, Ho Wo] = W [O, C kh kw] cols + b, and its backward
//   dcols = W^T dy  (then folded back onto dx by col2im, adding where windows overlap),
//   dW += dy cols^T,  db += the sums of dy's rows.
// Internal to autograd; tested equal to the reference in tests/autograd/test_conv2d.cpp.
#include <cstdint>

#include "lectern/autograd/kernels/gemm.h"
#include "lectern/autograd/reference/conv2d.h"

namespace autograd::detail {

template <class T>
void im2col(const T* x, const reference::Conv2dShape& s, T* cols) {
    const std::int64_t Ho = s.Ho(), Wo = s.Wo();
    for (std::int64_t c = 0; c < s.C; ++c)
        for (std::int64_t u = 0; u < s.kh; ++u)
            for (std::int64_t v = 0; v < s.kw; ++v) {
                T* row = cols + ((c * s.kh + u) * s.kw + v) * Ho * Wo;
                for (std::int64_t i = 0; i < Ho; ++i) {
                    const std::int64_t r = i * s.stride + u - s.padding;
                    for (std::int64_t j = 0; j < Wo; ++j) {
                        const std::int64_t q = j * s.stride + v - s.padding;
                        row[i * Wo + j] = r >= 0 && r < s.H && q >= 0 && q < s.W ? x[(c * s.H + r) * s.W + q] : T(0);
                    }
                }
            }
}

// dx (one image, zeroed here) = the sum, over every window that read each pixel, of dcols.
template <class T>
void col2im(const T* dcols, const reference::Conv2dShape& s, T* dx) {
    const std::int64_t Ho = s.Ho(), Wo = s.Wo();
    for (std::int64_t e = 0; e < s.C * s.H * s.W; ++e) dx[e] = 0;
    for (std::int64_t c = 0; c < s.C; ++c)
        for (std::int64_t u = 0; u < s.kh; ++u)
            for (std::int64_t v = 0; v < s.kw; ++v) {
                const T* row = dcols + ((c * s.kh + u) * s.kw + v) * Ho * Wo;
                for (std::int64_t i = 0; i < Ho; ++i) {
                    const std::int64_t r = i * s.stride + u - s.padding;
                    if (r < 0 || r >= s.H) continue;
                    for (std::int64_t j = 0; j < Wo; ++j) {
                        const std::int64_t q = j * s.stride + v - s.padding;
                        if (q >= 0 && q < s.W) dx[(c * s.H + r) * s.W + q] += row[i * Wo + j];
                    }
                }
            }
}

// One image's output y [O, Ho Wo]; cols is scratch of C kh kw Ho Wo elements.
template <class T>
void conv2d_image(const T* x, const T* w, const T* b, const reference::Conv2dShape& s, T* cols, T* y) {
    const std::int64_t K = s.C * s.kh * s.kw, P = s.Ho() * s.Wo();
    for (std::int64_t o = 0; o < s.O; ++o)
        for (std::int64_t e = 0; e < P; ++e) y[o * P + e] = b ? b[o] : T(0);
    im2col(x, s, cols);
    gemm_call(false, false, s.O, P, K, w, K, cols, P, y, P, T(1));
}

// One image's share of the backward: dx (its own, if not null) and dw, db (added into, if not
// null); cols and dcols are scratch of C kh kw Ho Wo elements each.
template <class T>
void conv2d_image_backward(const T* dy, const T* x, const T* w, const reference::Conv2dShape& s, T* cols, T* dcols,
                           T* dx, T* dw, T* db) {
    const std::int64_t K = s.C * s.kh * s.kw, P = s.Ho() * s.Wo();
    if (dx) {
        gemm_call(true, false, K, P, s.O, w, K, dy, P, dcols, P, T(0));
        col2im(dcols, s, dx);
    }
    if (dw) {
        im2col(x, s, cols);
        gemm_call(false, true, s.O, K, P, dy, P, cols, P, dw, K, T(1));
    }
    for (std::int64_t o = 0; db && o < s.O; ++o)
        for (std::int64_t e = 0; e < P; ++e) db[o] += dy[o * P + e];
}

}  // namespace autograd::detail
