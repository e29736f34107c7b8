#pragma once
// Softmax family, stable (the row max is subtracted) with fused backward
// (002, "The Weighting Coefficients P"; 001, "Scaled Dot-Product Attention").
#include "autograd/tensor.h"

namespace autograd {

// y = exp(x - max x) / sum exp(x - max x) over `dim`;  dx = y (dy - sum(dy y, dim))
Tensor softmax(const Tensor& x, std::int64_t dim);
// y = x - max x - log sum exp(x - max x);  dx = dy - softmax(x) sum(dy, dim)
Tensor log_softmax(const Tensor& x, std::int64_t dim);
// The attention weights P = softmax(M + scale * S) over the last dim in one
// pass (002's causal-mask form; 001's masked_fill before softmax). `mask` is
// int64, broadcastable to S (e.g. [B, 1, 1, Tk] padding or [1, 1, Tq, Tk]
// causal): nonzero keeps a score, 0 sets M = -inf. A row with every score
// masked gives all zeros (not NaN). dS = scale * P (dP - sum(dP P, -1)).
Tensor masked_softmax(const Tensor& scores, const Tensor& mask, double scale = 1.0);

}  // namespace autograd
