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
Tensor le(const Tensor& a, const Tensor& b);  // [a <= b]
Tensor ge(const Tensor& a, const Tensor& b);  // [a >= b]

// Logic on truth values, any nonzero being true (torch.logical_*): 1 or 0 in the operands' dtype,
// which broadcast and share one dtype, as above. A mask of eq/lt/... combines with these.
Tensor logical_and(const Tensor& a, const Tensor& b);  // [a != 0 and b != 0]
Tensor logical_or(const Tensor& a, const Tensor& b);   // [a != 0 or b != 0]
Tensor logical_xor(const Tensor& a, const Tensor& b);  // [(a != 0) != (b != 0)]
Tensor logical_not(const Tensor& x);                   // [x == 0]

}  // namespace autograd
