#pragma once
// Picking by a boolean mask (PyTorch's x[mask] and torch.masked_select). The mask is int64,
// nonzero for "keep"; the picked elements come out in row-major order, so the result's
// length is the mask's count of nonzeros and is known only after the forward.
#include "lectern/autograd/tensor.h"

namespace autograd {

// x[mask]: mask of the shape of x's first k dims (k = mask.dim()); the sub-tensors x[i...]
// where mask[i...] != 0, stacked: y [count, x.shape[k:]...].  dx = dy's rows placed back at
// the picked positions, 0 elsewhere.  ShapeError when mask's shape is not x's leading dims.
Tensor boolean_index(const Tensor& x, const Tensor& mask);
// The elements of x where mask != 0, mask broadcast to x's shape: y [count].  dx as above.
Tensor masked_select(const Tensor& x, const Tensor& mask);

}  // namespace autograd
