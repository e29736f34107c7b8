#pragma once
#include "lectern/autograd/tensor.h"

namespace autograd {

// Layer normalization over the last dim with gain gamma and bias beta, both [x.size(-1)]
// (003 "Layer normalization"); the formula and its fused backward are in layer_norm.cpp.
Tensor layer_norm(const Tensor& x, const Tensor& gamma, const Tensor& beta, double eps = 1e-5);

}  // namespace autograd
