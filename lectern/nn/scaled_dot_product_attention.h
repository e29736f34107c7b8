#pragma once
// Scaled dot-product attention, the core equation of every attention layer
// (001 "Scaled Dot-Product Attention"; 002 "The Weighting Coefficients P" and
// "Self-Attention: Step-by-Step"; 003 "Scaled dot-product attention";
// 004 §15.5.1 eq. 15.54):
//   P = softmax(Q K^T / sqrt(d_k) + M),   Z = P V,
// with M = -inf where `mask` is 0 (a row with every key masked gets P = 0).
// q [..., Tq, d_k], k [..., Tk, d_k], v [..., Tk, d_v]; the leading dims are
// batch dims (B, or B and heads H). `mask` is int64, nonzero = may attend,
// broadcastable to [..., Tq, Tk]; undefined = attend everywhere.
// scaled = false drops the 1/sqrt(d_k): P = softmax(Q K^T + M), the "dot-product
// (multiplicative) attention" that 001 sets beside it and 003 starts from; 002 "Why Use the
// 1/sqrt(D_K) Scaling?" and examples/experiments/scale.cpp show what the scale buys.
#include "lectern/autograd/autograd.h"

namespace nn {

using autograd::Tensor;

// P = softmax(Q K^T / sqrt(d_k) + M): [..., Tq, Tk], each row a distribution.
Tensor attention_weights(const Tensor& q, const Tensor& k, const Tensor& mask = Tensor(), bool scaled = true);

// Z = P V: [..., Tq, d_v].
Tensor scaled_dot_product_attention(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask = Tensor(),
                                    bool scaled = true);

}  // namespace nn
