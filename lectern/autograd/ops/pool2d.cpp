#include "lectern/autograd/ops/pool2d.h"

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/parallel.h"

namespace autograd {
namespace {

// One (image, channel) plane of H x W pixels, pooled by k x k windows every s pixels. Each
// plane is one index of the parallel loops: it writes only its own outputs, so no result
// depends on the threads. The same loops run float32 and float64 (nothing here is fast).
struct Pool {
    std::int64_t planes, H, W, k, s;
    std::int64_t Ho() const { return (H - k) / s + 1; }
    std::int64_t Wo() const { return (W - k) / s + 1; }
};

Pool pool_of(const char* op, const Tensor& x, std::int64_t kernel, std::int64_t stride) {
    check_floating(op, x);
    if (x.dim() != 4) throw ShapeError(fmt::format("{}: x must be [B, C, H, W], got {}", op, shape_str(x.shape())));
    if (stride == 0) stride = kernel;
    if (kernel <= 0 || stride <= 0 || kernel > x.size(2) || kernel > x.size(3))
        throw ValueError(fmt::format("{}: needs 0 < kernel <= H, W and stride > 0, got kernel {}, stride {} for x {}",
                                     op, kernel, stride, shape_str(x.shape())));
    return {x.size(0) * x.size(1), x.size(2), x.size(3), kernel, stride};
}

// y = the window's maximum; at[e] = the index in its plane of the first maximum in reading order
// (a NaN counts as a maximum, so it propagates as in PyTorch).
template <class T>
void max_forward(const T* x, const Pool& p, T* y, std::int64_t* at) {
    const std::int64_t Ho = p.Ho(), Wo = p.Wo();
    parallel_for(p.planes, Ho * Wo * p.k * p.k, [&](std::int64_t b0, std::int64_t b1) {
        for (std::int64_t b = b0; b < b1; ++b)
            for (std::int64_t i = 0; i < Ho; ++i)
                for (std::int64_t j = 0; j < Wo; ++j) {
                    const T* plane = x + b * p.H * p.W;
                    std::int64_t best = (i * p.s) * p.W + j * p.s;
                    for (std::int64_t u = 0; u < p.k; ++u)
                        for (std::int64_t v = 0; v < p.k; ++v) {
                            const std::int64_t e = (i * p.s + u) * p.W + j * p.s + v;
                            if (plane[e] > plane[best] || (plane[e] != plane[e] && plane[best] == plane[best]))
                                best = e;
                        }
                    y[(b * Ho + i) * Wo + j] = plane[best];
                    at[(b * Ho + i) * Wo + j] = best;
                }
    });
}

template <class T>
void max_backward(const T* dy, const std::int64_t* at, const Pool& p, T* dx) {
    const std::int64_t Ho = p.Ho(), Wo = p.Wo();
    parallel_for(p.planes, p.H * p.W + Ho * Wo, [&](std::int64_t b0, std::int64_t b1) {
        for (std::int64_t b = b0; b < b1; ++b) {
            T* plane = dx + b * p.H * p.W;
            for (std::int64_t e = 0; e < p.H * p.W; ++e) plane[e] = 0;
            for (std::int64_t e = 0; e < Ho * Wo; ++e) plane[at[b * Ho * Wo + e]] += dy[b * Ho * Wo + e];
        }
    });
}

template <class T>
void avg_forward(const T* x, const Pool& p, T* y) {
    const std::int64_t Ho = p.Ho(), Wo = p.Wo();
    const T scale = T(1) / static_cast<T>(p.k * p.k);
    parallel_for(p.planes, Ho * Wo * p.k * p.k, [&](std::int64_t b0, std::int64_t b1) {
        for (std::int64_t b = b0; b < b1; ++b)
            for (std::int64_t i = 0; i < Ho; ++i)
                for (std::int64_t j = 0; j < Wo; ++j) {
                    T acc = 0;
                    for (std::int64_t u = 0; u < p.k; ++u)
                        for (std::int64_t v = 0; v < p.k; ++v) acc += x[(b * p.H + i * p.s + u) * p.W + j * p.s + v];
                    y[(b * Ho + i) * Wo + j] = acc * scale;
                }
    });
}

template <class T>
void avg_backward(const T* dy, const Pool& p, T* dx) {
    const std::int64_t Ho = p.Ho(), Wo = p.Wo();
    const T scale = T(1) / static_cast<T>(p.k * p.k);
    parallel_for(p.planes, p.H * p.W + Ho * Wo * p.k * p.k, [&](std::int64_t b0, std::int64_t b1) {
        for (std::int64_t b = b0; b < b1; ++b) {
            T* plane = dx + b * p.H * p.W;
            for (std::int64_t e = 0; e < p.H * p.W; ++e) plane[e] = 0;
            for (std::int64_t i = 0; i < Ho; ++i)
                for (std::int64_t j = 0; j < Wo; ++j) {
                    const T g = dy[(b * Ho + i) * Wo + j] * scale;
                    for (std::int64_t u = 0; u < p.k; ++u)
                        for (std::int64_t v = 0; v < p.k; ++v) plane[(i * p.s + u) * p.W + j * p.s + v] += g;
                }
        }
    });
}

Shape pooled_shape(const Tensor& x, const Pool& p) { return {x.size(0), x.size(1), p.Ho(), p.Wo()}; }

}  // namespace

Tensor max_pool2d(const Tensor& x, std::int64_t kernel, std::int64_t stride) {
    const Pool p = pool_of("max_pool2d", x, kernel, stride);
    Tensor y = Tensor::empty(pooled_shape(x, p), x.dtype());
    Tensor at = Tensor::empty(y.shape(), Dtype::int64);
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        max_forward(x.data<T>(), p, y.data<T>(), at.data<std::int64_t>());
    });
    const Shape x_shape = x.shape();
    return record("max_pool2d", {x}, y, [at, p, x_shape](const Tensor& dy) {
        Tensor dx = Tensor::empty(x_shape, dy.dtype());
        dispatch_floating(dy.dtype(), [&](auto zero) {
            using T = decltype(zero);
            max_backward(dy.data<T>(), at.data<std::int64_t>(), p, dx.data<T>());
        });
        return std::vector{dx};
    });
}

Tensor avg_pool2d(const Tensor& x, std::int64_t kernel, std::int64_t stride) {
    const Pool p = pool_of("avg_pool2d", x, kernel, stride);
    Tensor y = Tensor::empty(pooled_shape(x, p), x.dtype());
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        avg_forward(x.data<T>(), p, y.data<T>());
    });
    const Shape x_shape = x.shape();
    return record("avg_pool2d", {x}, y, [p, x_shape](const Tensor& dy) {
        Tensor dx = Tensor::empty(x_shape, dy.dtype());
        dispatch_floating(dy.dtype(), [&](auto zero) {
            using T = decltype(zero);
            avg_backward(dy.data<T>(), p, dx.data<T>());
        });
        return std::vector{dx};
    });
}

}  // namespace autograd
