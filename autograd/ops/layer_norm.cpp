#include "autograd/ops/layer_norm.h"

#include <cmath>

#include <fmt/format.h>

#include "autograd/graph.h"

namespace autograd {

// 003 "Layer normalization", per row a of length D:
//   mu = mean(a), v = mean((a - mu)^2), a_hat = (a - mu) / sqrt(v + eps), s = gamma a_hat + beta.
// Backward with g = dy * gamma, rstd = 1 / sqrt(v + eps):
//   dx = rstd (g - mean(g) - a_hat mean(g a_hat)),  dgamma = sum_rows dy a_hat,  dbeta = sum_rows dy.
Tensor layer_norm(const Tensor& x, const Tensor& gamma, const Tensor& beta, double eps) {
    check_floating("layer_norm", x);
    check_floating("layer_norm", gamma);
    check_floating("layer_norm", beta);
    check_same_dtype("layer_norm", x, gamma);
    check_same_dtype("layer_norm", x, beta);
    if (x.dim() == 0) throw ShapeError("layer_norm: input must have at least 1 dim, got shape []");
    const std::int64_t D = x.size(-1);
    if (gamma.shape() != Shape{D} || beta.shape() != Shape{D})
        throw ShapeError(fmt::format("layer_norm: gamma {} and beta {} must both be [{}] for input {}",
                                     shape_str(gamma.shape()), shape_str(beta.shape()), D, shape_str(x.shape())));
    if (!(eps >= 0)) throw ValueError(fmt::format("layer_norm: eps {} must be >= 0", eps));
    const std::int64_t rows = D == 0 ? 0 : x.numel() / D;

    Tensor y = Tensor::empty(x.shape(), x.dtype());
    Tensor x_hat = Tensor::empty(x.shape(), x.dtype());  // a_hat, kept for the backward
    Tensor rstd = Tensor::empty({rows}, x.dtype());
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* px = x.data<T>();
        const T* pg = gamma.data<T>();
        const T* pb = beta.data<T>();
        T* py = y.data<T>();
        T* ph = x_hat.data<T>();
        T* pr = rstd.data<T>();
        for (std::int64_t r = 0; r < rows; ++r) {
            const T* a = px + r * D;
            T mu = 0;
            for (std::int64_t j = 0; j < D; ++j) mu += a[j];
            mu /= static_cast<T>(D);
            T v = 0;
            for (std::int64_t j = 0; j < D; ++j) v += (a[j] - mu) * (a[j] - mu);
            v /= static_cast<T>(D);
            const T rs = 1 / std::sqrt(v + static_cast<T>(eps));
            pr[r] = rs;
            for (std::int64_t j = 0; j < D; ++j) {
                T h = (a[j] - mu) * rs;
                ph[r * D + j] = h;
                py[r * D + j] = pg[j] * h + pb[j];
            }
        }
    });

    return record("layer_norm", {x, gamma, beta}, y, [x_hat, rstd, gamma, beta, rows, D](const Tensor& dy) {
        Tensor dx = Tensor::empty(dy.shape(), dy.dtype());
        Tensor dgamma = zeros({D}, dy.dtype());
        Tensor dbeta = zeros({D}, dy.dtype());
        dispatch_floating(dy.dtype(), [&](auto zero) {
            using T = decltype(zero);
            const T* g = dy.data<T>();
            const T* ph = x_hat.data<T>();
            const T* pr = rstd.data<T>();
            const T* pg = gamma.data<T>();
            T* q = dx.data<T>();
            T* dgm = dgamma.data<T>();
            T* dbt = dbeta.data<T>();
            for (std::int64_t r = 0; r < rows; ++r) {
                const T* gr = g + r * D;
                const T* hr = ph + r * D;
                T mean_g = 0, mean_gh = 0;
                for (std::int64_t j = 0; j < D; ++j) {
                    T gj = gr[j] * pg[j];
                    mean_g += gj;
                    mean_gh += gj * hr[j];
                    dgm[j] += gr[j] * hr[j];
                    dbt[j] += gr[j];
                }
                mean_g /= static_cast<T>(D);
                mean_gh /= static_cast<T>(D);
                for (std::int64_t j = 0; j < D; ++j) q[r * D + j] = pr[r] * (gr[j] * pg[j] - mean_g - hr[j] * mean_gh);
            }
        });
        return std::vector{dx, gamma.requires_grad() ? dgamma : Tensor(), beta.requires_grad() ? dbeta : Tensor()};
    });
}

}  // namespace autograd
