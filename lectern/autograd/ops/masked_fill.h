#pragma once
#include "lectern/autograd/tensor.h"

namespace autograd {

// y = value where mask != 0, x elsewhere (001's full post: scores.masked_fill(mask == 0, -1e9)).
// `mask` is int64 and broadcasts to x.shape;  dx = dy where mask == 0, else 0.
Tensor masked_fill(const Tensor& x, const Tensor& mask, double value);

}  // namespace autograd
