#include "autograd/ops/layer_norm.h"

#include <cmath>

#include <fmt/format.h>

#include "autograd/checks.h"
#include "autograd/factories.h"
#include "autograd/graph.h"
#include "autograd/ops/lane_sum.h"
#include "autograd/parallel.h"

namespace autograd {
namespace {

// Layer normalization of each row a of length D (003 "Layer normalization"):
//   mu = mean(a),  v = mean((a - mu)^2)  (biased),  rstd = 1 / sqrt(v + eps),
//   a_hat = (a - mu) rstd,  s = gamma a_hat + beta.
// Backward, with g = ds gamma:
//   da = rstd (g - mean(g) - a_hat mean(g a_hat)),
//   dgamma = sum over rows of ds a_hat,  dbeta = sum over rows of ds.

// The forward's output s and what the backward needs of it.
struct LayerNormForward {
    Tensor s;      // x's shape
    Tensor a_hat;  // x's shape
    Tensor rstd;   // [rows]
};

LayerNormForward layer_norm_forward(const Tensor& x, const Tensor& gamma, const Tensor& beta, double eps) {
    const std::int64_t D = x.size(-1), rows = D == 0 ? 0 : x.numel() / D;
    LayerNormForward out{Tensor::empty(x.shape(), x.dtype()), Tensor::empty(x.shape(), x.dtype()),
                         Tensor::empty({rows}, x.dtype())};
    dispatch_floating(x.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* g = gamma.data<T>();
        const T* b = beta.data<T>();
        T* rstd = out.rstd.data<T>();
        parallel_for(rows, 4 * D, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t r = begin; r < end; ++r) {
                const T* a = x.data<T>() + r * D;
                T* a_hat = out.a_hat.data<T>() + r * D;
                T* s = out.s.data<T>() + r * D;
                const T mu = detail::lane_sum<T>(D, [&](std::int64_t j) { return a[j]; }) / static_cast<T>(D);
                const T v = detail::lane_sum<T>(D, [&](std::int64_t j) { return (a[j] - mu) * (a[j] - mu); }) /
                            static_cast<T>(D);
                const T rs = 1 / std::sqrt(v + static_cast<T>(eps));
                rstd[r] = rs;
                for (std::int64_t j = 0; j < D; ++j) {
                    a_hat[j] = (a[j] - mu) * rs;
                    s[j] = g[j] * a_hat[j] + b[j];
                }
            }
        });
    });
    return out;
}

struct LayerNormGrads {
    Tensor da, dgamma, dbeta;
};

LayerNormGrads layer_norm_backward(const Tensor& ds, const Tensor& a_hat, const Tensor& rstd, const Tensor& gamma) {
    const std::int64_t D = gamma.numel(), rows = rstd.numel();
    LayerNormGrads grads{Tensor::empty(ds.shape(), ds.dtype()), zeros({D}, ds.dtype()), zeros({D}, ds.dtype())};
    dispatch_floating(ds.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* gam = gamma.data<T>();
        // da row by row, split over the rows.
        parallel_for(rows, 4 * D, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t r = begin; r < end; ++r) {
                const T* dsr = ds.data<T>() + r * D;
                const T* ahr = a_hat.data<T>() + r * D;
                T* dar = grads.da.data<T>() + r * D;
                const T mean_g =
                    detail::lane_sum<T>(D, [&](std::int64_t j) { return dsr[j] * gam[j]; }) / static_cast<T>(D);
                const T mean_g_a_hat =
                    detail::lane_sum<T>(D, [&](std::int64_t j) { return dsr[j] * gam[j] * ahr[j]; }) /
                    static_cast<T>(D);
                const T rs = rstd.data<T>()[r];
                for (std::int64_t j = 0; j < D; ++j) dar[j] = rs * (dsr[j] * gam[j] - mean_g - ahr[j] * mean_g_a_hat);
            }
        });
        // dgamma and dbeta sum over the rows: split over the columns instead, each summed in row order.
        T* dgamma = grads.dgamma.data<T>();
        T* dbeta = grads.dbeta.data<T>();
        parallel_for(D, 2 * rows, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t r = 0; r < rows; ++r) {
                const T* dsr = ds.data<T>() + r * D;
                const T* ahr = a_hat.data<T>() + r * D;
                for (std::int64_t j = begin; j < end; ++j) {
                    dgamma[j] += dsr[j] * ahr[j];
                    dbeta[j] += dsr[j];
                }
            }
        });
    });
    return grads;
}

void check_layer_norm(const Tensor& x, const Tensor& gamma, const Tensor& beta, double eps) {
    for (const Tensor* t : {&x, &gamma, &beta}) check_floating("layer_norm", *t);
    check_same_dtype("layer_norm", x, gamma);
    check_same_dtype("layer_norm", x, beta);
    if (x.dim() == 0) throw ShapeError("layer_norm: input must have at least 1 dim, got shape []");
    const std::int64_t D = x.size(-1);
    if (gamma.shape() != Shape{D} || beta.shape() != Shape{D})
        throw ShapeError(fmt::format("layer_norm: gamma {} and beta {} must both be [{}] for input {}",
                                     shape_str(gamma.shape()), shape_str(beta.shape()), D, shape_str(x.shape())));
    if (!(eps >= 0)) throw ValueError(fmt::format("layer_norm: eps {} must be >= 0", eps));
}

}  // namespace

Tensor layer_norm(const Tensor& x, const Tensor& gamma, const Tensor& beta, double eps) {
    check_layer_norm(x, gamma, beta, eps);
    LayerNormForward f = layer_norm_forward(x, gamma, beta, eps);
    return record("layer_norm", {x, gamma, beta}, f.s, [a_hat = f.a_hat, rstd = f.rstd, gamma, beta](const Tensor& ds) {
        LayerNormGrads g = layer_norm_backward(ds, a_hat, rstd, gamma);
        return std::vector{g.da, gamma.requires_grad() ? g.dgamma : Tensor(), beta.requires_grad() ? g.dbeta : Tensor()};
    });
}

}  // namespace autograd
