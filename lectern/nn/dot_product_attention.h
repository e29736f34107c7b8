#pragma once
// 003's "Dot-product attention", the step before any projection: the inputs themselves are
// the queries, keys and values. For X [..., N, d] and Y [..., M, d]:
//   A = softmax(X Y^T) Y                 (003, one row: a_1 = softmax(x_1 Y^T) Y)
// 003's dot-product attention has no temperature; scaled = true borrows the sqrt(d) that 003
// introduces only with the projections ("Scaled dot-product attention"): softmax(X Y^T / sqrt(d)) Y.
// Self-attention of X over itself is dot_product_attention(x, x): X X^T has |x_i|^2 on its
// diagonal, so unscaled each token mostly attends to itself. `mask` as in
// scaled_dot_product_attention (int64, nonzero = may attend, broadcastable to [..., N, M]).
#include "lectern/autograd/autograd.h"

namespace nn {

autograd::Tensor dot_product_attention(const autograd::Tensor& x, const autograd::Tensor& y,
                                       const autograd::Tensor& mask = autograd::Tensor(), bool scaled = false);

}  // namespace nn
