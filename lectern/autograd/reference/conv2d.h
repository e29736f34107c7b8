#pragma once
// A 2-D convolution over images, NCHW as PyTorch's conv2d: the plain reference, loops over the
// equation (the CNN that 004 §15.5.6 sets against the ViT: local windows, one kernel slid over
// every position). float64 runs it; ops/conv2d.cpp's im2col and GEMM is its float32 twin,
// tested equal in tests/autograd/test_conv2d.cpp.
//   x [B, C, H, W], w [O, C, kh, kw], b [O] (or null), stride s, padding p (zeros), y [B, O, Ho, Wo],
//   Ho = (H + 2p - kh) / s + 1,  Wo = (W + 2p - kw) / s + 1  (rounded down)
//   y[n, o, i, j] = b[o] + sum_{c, u, v} w[o, c, u, v] x[n, c, i s + u - p, j s + v - p]
//   (a term whose x falls in the padding is 0)
// Backward, each term of the sum read the other way:
//   dx[n, c, i s + u - p, j s + v - p] += w[o, c, u, v] dy[n, o, i, j]
//   dw[o, c, u, v] = sum_{n, i, j} dy[n, o, i, j] x[n, c, i s + u - p, j s + v - p]
//   db[o] = sum_{n, i, j} dy[n, o, i, j]
#include <cstdint>

namespace autograd::reference {

struct Conv2dShape {
    std::int64_t B, C, H, W, O, kh, kw, stride, padding;
    std::int64_t Ho() const { return (H + 2 * padding - kh) / stride + 1; }
    std::int64_t Wo() const { return (W + 2 * padding - kw) / stride + 1; }
};

template <class T>
void conv2d(const T* x, const T* w, const T* b, const Conv2dShape& s, T* y) {
    const std::int64_t Ho = s.Ho(), Wo = s.Wo();
    for (std::int64_t n = 0; n < s.B; ++n)
        for (std::int64_t o = 0; o < s.O; ++o)
            for (std::int64_t i = 0; i < Ho; ++i)
                for (std::int64_t j = 0; j < Wo; ++j) {
                    T acc = b ? b[o] : T(0);
                    for (std::int64_t c = 0; c < s.C; ++c)
                        for (std::int64_t u = 0; u < s.kh; ++u) {
                            const std::int64_t r = i * s.stride + u - s.padding;
                            if (r < 0 || r >= s.H) continue;
                            for (std::int64_t v = 0; v < s.kw; ++v) {
                                const std::int64_t q = j * s.stride + v - s.padding;
                                if (q < 0 || q >= s.W) continue;
                                acc +=
                                    w[((o * s.C + c) * s.kh + u) * s.kw + v] * x[((n * s.C + c) * s.H + r) * s.W + q];
                            }
                        }
                    y[((n * s.O + o) * Ho + i) * Wo + j] = acc;
                }
}

// Writes whichever of dx, dw and db is not null.
template <class T>
void conv2d_backward(const T* dy, const T* x, const T* w, const Conv2dShape& s, T* dx, T* dw, T* db) {
    const std::int64_t Ho = s.Ho(), Wo = s.Wo();
    if (dx)
        for (std::int64_t e = 0; e < s.B * s.C * s.H * s.W; ++e) dx[e] = 0;
    if (dw)
        for (std::int64_t e = 0; e < s.O * s.C * s.kh * s.kw; ++e) dw[e] = 0;
    if (db)
        for (std::int64_t o = 0; o < s.O; ++o) db[o] = 0;
    for (std::int64_t n = 0; n < s.B; ++n)
        for (std::int64_t o = 0; o < s.O; ++o)
            for (std::int64_t i = 0; i < Ho; ++i)
                for (std::int64_t j = 0; j < Wo; ++j) {
                    const T g = dy[((n * s.O + o) * Ho + i) * Wo + j];
                    if (db) db[o] += g;
                    for (std::int64_t c = 0; c < s.C; ++c)
                        for (std::int64_t u = 0; u < s.kh; ++u) {
                            const std::int64_t r = i * s.stride + u - s.padding;
                            if (r < 0 || r >= s.H) continue;
                            for (std::int64_t v = 0; v < s.kw; ++v) {
                                const std::int64_t q = j * s.stride + v - s.padding;
                                if (q < 0 || q >= s.W) continue;
                                const std::int64_t xi = ((n * s.C + c) * s.H + r) * s.W + q;
                                const std::int64_t wi = ((o * s.C + c) * s.kh + u) * s.kw + v;
                                if (dx) dx[xi] += w[wi] * g;
                                if (dw) dw[wi] += x[xi] * g;
                            }
                        }
                }
}

}  // namespace autograd::reference
