#pragma once
// The elementwise larger or smaller of two tensors (torch.maximum / torch.minimum), with NumPy
// broadcasting; both floating, of one dtype. A NaN in either operand gives NaN, as in PyTorch.
#include "lectern/autograd/tensor.h"

namespace autograd {

// y = max(a, b);  da = dy ([a > b] + [a = b] / 2),  db = dy ([a < b] + [a = b] / 2): a tie
// splits the gradient evenly between the two, as PyTorch's does (each summed back to its shape)
Tensor maximum(const Tensor& a, const Tensor& b);
// y = min(a, b);  da = dy ([a < b] + [a = b] / 2),  db = dy ([a > b] + [a = b] / 2)
Tensor minimum(const Tensor& a, const Tensor& b);

}  // namespace autograd
