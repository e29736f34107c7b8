#pragma once
// Additive attention, the compatibility function 001 "Scaled Dot-Product Attention" sets beside
// the dot product ("a feed-forward network with a single hidden layer", Bahdanau et al.):
//   e_ij = v^T tanh(W_q q_i + W_k k_j),   P = softmax(E + M),   Z = P V,
// with M = -inf where `mask` is 0 (a row with every key masked gets P = 0), as in
// scaled_dot_product_attention. The hidden layer's width is d_a. 001: the two are alike for
// small d_k, additive beats the unscaled dot product for large d_k (examples/experiments/scale.cpp
// measures it), and the dot product is faster: e_ij needs a d_a-vector per pair (i, j), the
// [..., Tq, Tk, d_a] tensor below, where the dot product needs one GEMM.
#include "lectern/nn/module.h"

namespace nn {

// P = softmax(v^T tanh(q_i + k_j) + M) for queries and keys already projected (W_q q, W_k k):
// q [..., Tq, d_a], k [..., Tk, d_a] -> [..., Tq, Tk]. `v` [d_a], or of a shape that broadcasts
// against [..., Tq, Tk, d_a] (one v per head: [H, 1, 1, d_a]). `mask` int64, nonzero = may
// attend, broadcastable to [..., Tq, Tk]; undefined = attend everywhere.
Tensor additive_attention_weights(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask = Tensor());

// The module: its own W_q [d_a, d_query], W_k [d_a, d_key] (no biases, as Bahdanau's W_a and
// U_a) and v [d_a], initialised as PyTorch's Linear, U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
class AdditiveAttention : public Module {
public:
    AdditiveAttention(std::int64_t d_query, std::int64_t d_key, std::int64_t d_attention,
                      autograd::Generator& gen = autograd::default_generator());

    // P: query [..., Tq, d_query], key [..., Tk, d_key] -> [..., Tq, Tk].
    Tensor weights(const Tensor& query, const Tensor& key, const Tensor& mask = Tensor()) const;
    // Z = P value: value [..., Tk, d_v] -> [..., Tq, d_v].
    Tensor forward(const Tensor& query, const Tensor& key, const Tensor& value, const Tensor& mask = Tensor()) const;
    Tensor operator()(const Tensor& query, const Tensor& key, const Tensor& value,
                      const Tensor& mask = Tensor()) const {
        return forward(query, key, value, mask);
    }

    Tensor w_q, w_k;  // [d_a, d_query], [d_a, d_key]
    Tensor v;         // [d_a]
};

}  // namespace nn
