#pragma once
// Every head's scaled dot-product attention in one op, on the heads as the projections
// lay them out: side by side in the last dim (llm.c's layout). One head's equations,
// forward beside backward, are reference::attention_head (autograd/reference/attention.h);
// attention.cpp runs them over every head; nn::MultiHeadAttention puts the projections
// around it.
#include <optional>

#include "lectern/autograd/random.h"
#include "lectern/autograd/tensor.h"

namespace autograd {

struct AttentionOutput {
    Tensor z;        // [B, Tq, H d_v]: Concat(head_1, ..., head_h), differentiable
    Tensor weights;  // [B, H, Tq, Tk]: each head's P before dropout, not differentiable (for plots)
};

// For each head i (its columns i d_k .. (i + 1) d_k of q and k, i d_v .. of v):
//   P_i = softmax(scale Q_i K_i^T + M),   head_i = dropout(P_i) V_i
// with scale = 1 / sqrt(d_k) unless `scale` is given (1: 001's unscaled dot-product attention;
// 003 reads 1 / scale as the softmax's temperature).
// q [B, Tq, H d_k], k [B, Tk, H d_k], v [B, Tk, H d_v]. `mask` is int64, nonzero = may
// attend, broadcastable to [B, Tq, Tk] and the same for every head (undefined: attend
// everywhere); a query with every key masked gets P = 0. Dropout on P with probability
// `dropout` when `training`, drawn from `gen` like autograd::dropout on P.
// ShapeError for shapes that do not fit, DtypeError for a mask that is not int64.
AttentionOutput multi_head_attention(const Tensor& q, const Tensor& k, const Tensor& v, std::int64_t heads,
                                     const Tensor& mask = Tensor(), double dropout = 0.0, bool training = false,
                                     Generator& gen = default_generator(), std::optional<double> scale = {});

// Self-attention with q, k and v side by side in one tensor, as one product with the three
// projections' weights stacked computes them (nn::MultiHeadAttention on x, x, x):
// qkv [B, T, 3 H d_k] holds q in its columns [0, H d_k), k in the next H d_k and v in the
// last; the same as multi_head_attention(q, k, v, ...) on those thirds, and the gradient
// comes back in the same layout, one tensor.
AttentionOutput multi_head_self_attention(const Tensor& qkv, std::int64_t heads, const Tensor& mask = Tensor(),
                                          double dropout = 0.0, bool training = false,
                                          Generator& gen = default_generator(), std::optional<double> scale = {});

// Attention of q [B, Tq, H d_k] over the first `length` positions of keys and values kept
// head by head, as a decoder's cache keeps them (nn::KVCache) so that a step appends its own
// position in place: keys_t [B, H, d_k, C] holds each head's K^T, values [B, H, C, d_v] each
// head's V, C a multiple of 8 (the positions past `length` are read and their lanes dropped).
// The same z and P, to the bit, as multi_head_attention without dropout on those keys and
// values, whose K^T it would pack. Float32 only, and no gradient: it is for decoding
// (ValueError when grad mode is on and an input requires a gradient).
AttentionOutput attention_over_cache(const Tensor& q, const Tensor& keys_t, const Tensor& values, std::int64_t length,
                                     const Tensor& mask = Tensor(), std::optional<double> scale = {});

}  // namespace autograd
