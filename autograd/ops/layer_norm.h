#pragma once
#include "autograd/tensor.h"

namespace autograd {

// Layer normalisation over the last dim, fused forward and backward
// (003, "Layer normalization"):
//   mu = mean(a),  v = mean((a - mu)^2)  (biased),  a_hat = (a - mu) / sqrt(v + eps),
//   s = gamma * a_hat + beta.
// gamma and beta have shape [D] with D = x.size(-1).
// backward, with g = dy * gamma and rstd = 1/sqrt(v + eps):
//   dx = rstd * (g - mean(g) - a_hat * mean(g * a_hat)),
//   dgamma = sum over rows of dy * a_hat,  dbeta = sum over rows of dy.
Tensor layer_norm(const Tensor& x, const Tensor& gamma, const Tensor& beta, double eps = 1e-5);

}  // namespace autograd
