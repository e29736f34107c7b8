#pragma once
// Matrix product through BLAS (docs/design.md, "Speed on two cores").
#include "lectern/autograd/tensor.h"

namespace autograd {

// C = op(A) op(B), op(X) = X^T when its flag is set. A is [..., m, k] ([..., k, m]
// transposed), B is [..., k, n] ([..., n, k] transposed), both at least 2-D; batch dims
// broadcast by NumPy rules, so C is [batch..., m, n]. When B has no batch dims, A's
// batch folds into m: one GEMM for a Linear on [B, T, D]. The backward is in matmul.cpp.
// ShapeError "matmul: inner dimensions differ: [2, 3] @ [4, 5]".
Tensor matmul(const Tensor& a, const Tensor& b, bool transpose_a = false, bool transpose_b = false);

}  // namespace autograd
