#include "nn/multi_head_attention.h"

#include "nn/attention_mask.h"

#include <fmt/format.h>

namespace nn {

using namespace autograd;

MultiHeadAttention::MultiHeadAttention(std::int64_t d_model, std::int64_t h, double p, Generator& gen)
    : MultiHeadAttention(d_model, h, d_model, d_model, p, gen) {}

MultiHeadAttention::MultiHeadAttention(std::int64_t d_model, std::int64_t h, std::int64_t key_width,
                                       std::int64_t value_width, double p, Generator& gen)
    : heads(h), kdim(key_width), vdim(value_width) {
    if (h <= 0 || d_model <= 0 || d_model % h != 0)
        throw ValueError(fmt::format("MultiHeadAttention: d_model {} must be a positive multiple of heads {}", d_model, h));
    if (kdim <= 0 || vdim <= 0)
        throw ValueError(fmt::format("MultiHeadAttention: kdim {} and vdim {} must be positive", kdim, vdim));
    d_k = d_model / h;
    w_q = register_module("w_q", std::make_shared<Linear>(d_model, d_model, true, gen));
    w_k = register_module("w_k", std::make_shared<Linear>(kdim, d_model, true, gen));
    w_v = register_module("w_v", std::make_shared<Linear>(vdim, d_model, true, gen));
    w_o = register_module("w_o", std::make_shared<Linear>(d_model, d_model, true, gen));
    dropout = register_module("dropout", std::make_shared<Dropout>(p));
}

void MultiHeadAttention::check_input(const char* what, const Tensor& x, std::int64_t width) const {
    check_floating("MultiHeadAttention", x);
    if (x.dim() != 3 || x.size(2) != width)
        throw ShapeError(fmt::format("MultiHeadAttention: {} must be [B, T, {}], got {}", what, width, shape_str(x.shape())));
}

void MultiHeadAttention::check_self_attention(const char* what) const {
    if (kdim != heads * d_k || vdim != heads * d_k)
        throw ValueError(fmt::format("MultiHeadAttention: {} is self-attention, which needs kdim = vdim = d_model {}, "
                                     "not {} and {}", what, heads * d_k, kdim, vdim));
}

// Every head's softmax(q_i k_i^T / sqrt(d_k) + M) v_i, the heads side by side: q [B, Tq, D],
// k, v [B, Tk, D] -> [B, Tq, D].
// The op checks the mask (int64, broadcastable to [B, Tq, Tk]). Dropout on P (001's full post:
// p_attn = dropout(p_attn)) is inside it.
Tensor MultiHeadAttention::attend(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask) const {
    AttentionOutput a = multi_head_attention(q, k, v, heads, mask, dropout->p, dropout->is_training());
    last_attention_ = a.weights;
    return a.z;
}

Tensor MultiHeadAttention::forward(const Tensor& query, const Tensor& key, const Tensor& value, const Tensor& mask) const {
    check_input("query", query, heads * d_k);
    check_input("key", key, kdim);
    check_input("value", value, vdim);
    if (key.size(0) != value.size(0) || key.size(1) != value.size(1) || key.size(0) != query.size(0))
        throw ShapeError(fmt::format("MultiHeadAttention: query {}, key {} and value {} do not match",
                                     shape_str(query.shape()), shape_str(key.shape()), shape_str(value.shape())));
    return w_o->forward(attend(w_q->forward(query), w_k->forward(key), w_v->forward(value), mask));
}

// Self-attention's three projections of x as one product (PyTorch's in_proj):
//   [X W^Q, X W^K, X W^V] = x [W^Q; W^K; W^V]^T + [b_Q; b_K; b_V],   [B, T, 3D],
// which the op reads in place. One product instead of three: x is read once, and the
// backward's dx is one product, not three added. Stacking copies the weights (3 D^2
// numbers); its backward splits their gradients back to w_q, w_k and w_v.
Tensor MultiHeadAttention::self_attention(const Tensor& x, const Tensor& mask) const {
    check_self_attention("self_attention");
    check_input("x", x, heads * d_k);
    Tensor w = concat({w_q->weight, w_k->weight, w_v->weight}, 0);  // [3D, D]
    Tensor b = concat({w_q->bias, w_k->bias, w_v->bias}, 0);        // [3D]
    AttentionOutput a = multi_head_self_attention(linear(x, w, b), heads, mask, dropout->p, dropout->is_training());
    last_attention_ = a.weights;
    return w_o->forward(a.z);
}

Tensor MultiHeadAttention::forward_block_local(const Tensor& x, std::int64_t block) const {
    check_self_attention("forward_block_local");
    check_input("x", x, heads * d_k);
    if (block <= 0) throw ValueError(fmt::format("MultiHeadAttention: block size must be positive, got {}", block));
    const std::int64_t B = x.size(0), T = x.size(1), D = x.size(2), blocks = (T + block - 1) / block;
    Tensor h = x;
    if (blocks * block != T) h = concat({x, zeros({B, blocks * block - T, D}, x.dtype())}, 1);  // padding after the end
    h = reshape(h, {B * blocks, block, D});                                 // one batch entry per block
    Tensor y = self_attention(h, subsequent_mask(block));                   // [B * T/L, L, D]
    y = reshape(y, {B, blocks * block, D});
    return blocks * block == T ? y : narrow(y, 1, 0, T);
}

Tensor MultiHeadAttention::forward_cached(const Tensor& x_new, KVCache& cache, const Tensor& mask) const {
    check_self_attention("forward_cached");
    check_input("x_new", x_new, heads * d_k);
    Tensor k = w_k->forward(x_new), v = w_v->forward(x_new);
    if (cache.length() > 0) {
        if (cache.keys.size(0) != x_new.size(0))
            throw ShapeError(fmt::format("MultiHeadAttention: cache holds batch {}, input {}", cache.keys.size(0),
                                         shape_str(x_new.shape())));
        k = concat({cache.keys, k}, 1);
        v = concat({cache.values, v}, 1);
    }
    cache.keys = k;
    cache.values = v;
    return w_o->forward(attend(w_q->forward(x_new), k, v, mask));
}

Tensor MultiHeadAttention::forward_memory_cached(const Tensor& query, const Tensor& memory, KVCache& cache,
                                                 const Tensor& mask) const {
    check_input("query", query, heads * d_k);
    if (cache.length() == 0) {
        if (kdim != vdim)
            throw ValueError(fmt::format("MultiHeadAttention: forward_memory_cached reads keys and values from one memory, "
                                         "but kdim {} != vdim {}", kdim, vdim));
        check_input("memory", memory, kdim);
        cache.keys = w_k->forward(memory);
        cache.values = w_v->forward(memory);
    }
    return w_o->forward(attend(w_q->forward(query), cache.keys, cache.values, mask));
}

}  // namespace nn
