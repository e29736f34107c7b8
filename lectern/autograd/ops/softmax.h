#pragma once
// The softmax family, stable (the max is subtracted before exp); formulas and
// backwards in softmax.cpp (002 "The Weighting Coefficients P"; 001 "Scaled Dot-Product Attention").
#include "lectern/autograd/tensor.h"

namespace autograd {

// Softmax over `dim`: each 1-D slice along it becomes a probability vector.
Tensor softmax(const Tensor& x, std::int64_t dim);
// Log of the softmax over `dim`, computed without forming the softmax.
Tensor log_softmax(const Tensor& x, std::int64_t dim);
// Attention's weights P = softmax(M + scale * S) over the last dim in one pass. `mask`
// is int64, broadcastable to S (e.g. [B, 1, 1, Tk] padding or [1, 1, Tq, Tk] causal):
// nonzero keeps a score, 0 masks it (M = -inf). A row with every score masked is all
// zeros, not NaN.
Tensor masked_softmax(const Tensor& scores, const Tensor& mask, double scale = 1.0);

}  // namespace autograd
