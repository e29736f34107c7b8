#pragma once
// Broadcasting as explicit ops: the pair is each other's backward.
#include "lectern/autograd/tensor.h"

namespace autograd {

// y = x repeated to `shape` by NumPy rules;  dx = sum_to(dy, x.shape)
Tensor broadcast_to(const Tensor& x, const Shape& shape);
// y = dy summed over the dims where `shape` broadcasts (the backward of
// broadcasting);  dx = broadcast_to(dy, x.shape).  ShapeError if `shape`
// does not broadcast to x.shape.
Tensor sum_to(const Tensor& x, const Shape& shape);

}  // namespace autograd
