#pragma once
// The affine map of a Linear layer as one op (PyTorch's F.linear).
#include "lectern/autograd/tensor.h"

namespace autograd {

// y = x W^T + b for x [..., in], W [out, in], b [out] (or undefined: no bias); y is
// [..., out]. The backward is in linear.cpp.
// ShapeError "linear: input [2, 3] does not end in in_features = 4".
Tensor linear(const Tensor& x, const Tensor& weight, const Tensor& bias = Tensor());

}  // namespace autograd
