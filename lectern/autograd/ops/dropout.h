#pragma once
#include "lectern/autograd/random.h"
#include "lectern/autograd/tensor.h"

namespace autograd {

// Inverted dropout: in training each element is zeroed with probability p and the
// rest scaled by 1/(1 - p); the identity when !training or p == 0. p in [0, 1)
// (ValueError). Formula and backward in dropout.cpp.
Tensor dropout(const Tensor& x, double p, bool training, Generator& gen);

}  // namespace autograd
