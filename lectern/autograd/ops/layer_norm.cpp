#include "lectern/autograd/ops/layer_norm.h"

#include <array>
#include <cmath>
#include <type_traits>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/factories.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/kernels/layer_norm_row.h"
#include "lectern/autograd/parallel.h"
#include "lectern/autograd/reference/layer_norm.h"

namespace autograd {
namespace {

// Layer normalization of each row a of length D (003 "Layer normalization"), row by row:
// reference::layer_norm_row's equations (reference/layer_norm.h), which float64 runs, and
// kernels/layer_norm_row.h's twins for float32.
//   mu = mean(a),  v = mean((a - mu)^2),  rstd = 1 / sqrt(v + eps),  a_hat = (a - mu) rstd,
//   s = gamma a_hat + beta
// Backward, with g = ds gamma:
//   da = rstd (g - mean(g) - a_hat mean(g a_hat)),  dgamma = sum of ds a_hat,  dbeta = sum of ds

template <class T>
using ForwardRow = T(const T* a, const T* gamma, const T* beta, T eps, std::int64_t D, T* a_hat, T* s);
template <class T>
using BackwardRow = void(const T* ds, const T* a_hat, const T* gamma, T rstd, std::int64_t D, T* da, T* dgamma,
                         T* dbeta);

// The row functions for T and rows of D, chosen once per call.
template <class T>
struct RowFunctions {
    ForwardRow<T>* forward;
    BackwardRow<T>* backward;
};

template <class T>
RowFunctions<T> row_functions(std::int64_t D) {
    if constexpr (std::is_same_v<T, double>)
        return {reference::layer_norm_row<double>, reference::layer_norm_row_backward<double>};
    else if (D % detail::kLanes == 0) return {detail::layer_norm_row_lanes, detail::layer_norm_row_backward_lanes};
    else return {detail::layer_norm_row_sums, detail::layer_norm_row_backward_sums};
}

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
        ForwardRow<T>* const row = row_functions<T>(D).forward;
        const T *a = x.data<T>(), *g = gamma.data<T>(), *b = beta.data<T>();
        T *a_hat = out.a_hat.data<T>(), *s = out.s.data<T>(), *rstd = out.rstd.data<T>();
        const T e = static_cast<T>(eps);
        parallel_for(rows, 4 * D, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t r = begin; r < end; ++r) rstd[r] = row(a + r * D, g, b, e, D, a_hat + r * D, s + r * D);
        });
    });
    return out;
}

struct LayerNormGrads {
    Tensor da, dgamma, dbeta;
};

// da row by row, and dgamma and dbeta summed beside it while the rows are in cache.
LayerNormGrads layer_norm_backward(const Tensor& ds, const Tensor& a_hat, const Tensor& rstd, const Tensor& gamma) {
    const std::int64_t D = gamma.numel(), rows = rstd.numel();
    LayerNormGrads grads{Tensor::empty(ds.shape(), ds.dtype()), Tensor::empty({D}, ds.dtype()),
                         Tensor::empty({D}, ds.dtype())};
    dispatch_floating(ds.dtype(), [&](auto zero) {
        using T = decltype(zero);
        BackwardRow<T>* const row = row_functions<T>(D).backward;
        const T *dsp = ds.data<T>(), *ah = a_hat.data<T>(), *rs = rstd.data<T>(), *g = gamma.data<T>();
        T* da = grads.da.data<T>();
        const std::array<PartSums<T>, 2> sums{{{grads.dgamma.data<T>(), D}, {grads.dbeta.data<T>(), D}}};
        parallel_sums(rows, 4 * D, sums, [&](const std::array<T*, 2>& part, std::int64_t begin, std::int64_t end) {
            for (std::int64_t r = begin; r < end; ++r)
                row(dsp + r * D, ah + r * D, g, rs[r], D, da + r * D, part[0], part[1]);
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
        return std::vector{g.da, gamma.requires_grad() ? g.dgamma : Tensor(),
                           beta.requires_grad() ? g.dbeta : Tensor()};
    });
}

}  // namespace autograd
