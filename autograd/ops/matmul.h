#pragma once
// Matrix product through BLAS (docs/design.md, "Speed on two cores").
#include "autograd/tensor.h"

namespace autograd {

// C = op(A) op(B), op(X) = X^T when the flag is set (a GEMM flag, never a copy).
// A is [..., m, k] (or [..., k, m] transposed), B is [..., k, n] (or [..., n, k]);
// both at least 2-D; batch dims broadcast by NumPy rules -> C is [batch..., m, n].
// When B has no batch dims, A's batch dims fold into m: one GEMM for a Linear
// on [B, T, D]. Otherwise one GEMM per batch entry.
// dA = dC op(B)^T (transposed back if A was), dB = op(A)^T dC, each summed over
// the batch dims the operand was broadcast along.
// ShapeError "matmul: inner dimensions differ: [2, 3] @ [4, 5]".
Tensor matmul(const Tensor& a, const Tensor& b, bool transpose_a = false, bool transpose_b = false);

}  // namespace autograd
