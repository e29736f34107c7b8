#pragma once
// The gated linear unit (the conformer's convolution module, 004 §15.5.7; PyTorch's F.glu):
// the input's `dim` cut into two halves, the first gated by the sigmoid of the second.
#include <cstdint>

#include "lectern/autograd/tensor.h"

namespace autograd {

// x [..., 2H, ...] (`dim` of even size 2H) -> y [..., H, ...], with a = x's first H along dim and
// b its last H:
//   y = a sigmoid(b)
// Backward, with s = sigmoid(b):
//   da = dy s,   db = dy a s (1 - s)
Tensor glu(const Tensor& x, std::int64_t dim = -1);

}  // namespace autograd
