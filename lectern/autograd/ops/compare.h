#pragma once
// Elementwise comparisons with NumPy broadcasting, as torch.eq/ne/lt/gt: 1 where the
// relation holds, else 0, in the operands' dtype (float32, float64 or int64), so that
// mean(eq(argmax(logits, -1), labels).to(float32)) is an accuracy. Not differentiable: the
// output is piecewise constant, and never requires grad.
#include "lectern/autograd/tensor.h"

namespace autograd {

Tensor eq(const Tensor& a, const Tensor& b);  // [a == b]
Tensor ne(const Tensor& a, const Tensor& b);  // [a != b]
Tensor lt(const Tensor& a, const Tensor& b);  // [a < b]
Tensor gt(const Tensor& a, const Tensor& b);  // [a > b]

}  // namespace autograd
