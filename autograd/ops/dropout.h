#pragma once
#include "autograd/random.h"
#include "autograd/tensor.h"

namespace autograd {

// Inverted dropout: in training each element is kept with probability 1 - p
// and scaled by 1/(1 - p), so eval needs no rescaling; the identity when
// !training or p == 0. dx = dy * keep / (1 - p). p in [0, 1) (ValueError).
Tensor dropout(const Tensor& x, double p, bool training, Generator& gen);

}  // namespace autograd
