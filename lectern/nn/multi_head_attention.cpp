#include "lectern/nn/multi_head_attention.h"

#include <cmath>

#include <fmt/format.h>

#include "lectern/nn/additive_attention.h"
#include "lectern/nn/init.h"

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

// The op's default, 1 / sqrt(d_k), or 1 unscaled.
std::optional<double> MultiHeadAttention::score_scale() const {
    return scaled ? std::nullopt : std::optional<double>(1.0);
}

// Every head's softmax(q_i k_i^T / sqrt(d_k) + M) v_i, the heads side by side: q [B, Tq, D],
// k, v [B, Tk, D] -> [B, Tq, D].
// The op checks the mask (int64, broadcastable to [B, Tq, Tk]). Dropout on P (001's full post:
// p_attn = dropout(p_attn)) is inside it.
Tensor MultiHeadAttention::attend(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask) const {
    if (compatibility() == Compatibility::additive) return attend_additive(q, k, v, mask);
    AttentionOutput a = multi_head_attention(q, k, v, heads, mask, dropout->p, dropout->is_training(),
                                             default_generator(), score_scale());
    last_attention_ = a.weights;
    return a.z;
}

void MultiHeadAttention::use_additive_scores(Generator& gen) {
    if (v.defined()) return;
    const double bound = 1 / std::sqrt(static_cast<double>(d_k));
    v = register_parameter("v", zeros({heads, d_k}, w_q->weight.dtype()));
    init::uniform_(v, -bound, bound, gen);
}

// The same equations with additive scores, head by head as composed ops: q [B, Tq, D] ->
// [B, H, Tq, d_k] (and k, v), P = additive_attention_weights with v_h broadcast per head,
// dropout on P (last_attention keeps P before it), Z = P V, the heads side by side again.
Tensor MultiHeadAttention::attend_additive(const Tensor& q, const Tensor& k, const Tensor& values,
                                           const Tensor& mask) const {
    const std::int64_t B = q.size(0), Tq = q.size(1), Tk = k.size(1);
    auto split = [&](const Tensor& x, std::int64_t T) { return permute(reshape(x, {B, T, heads, d_k}), {0, 2, 1, 3}); };
    // The mask is [B or 1, Tq or 1, Tk] (or of lower rank): the same for every head.
    Tensor head_mask = mask.defined() && mask.dim() == 3 ? unsqueeze(mask, 1) : mask;
    Tensor p = additive_attention_weights(split(q, Tq), split(k, Tk), reshape(v, {heads, 1, 1, d_k}), head_mask);
    last_attention_ = p.detach();
    Tensor z = matmul(dropout->forward(p), split(values, Tk));  // [B, H, Tq, d_k]
    return reshape(permute(z, {0, 2, 1, 3}), {B, Tq, heads * d_k});
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
    if (compatibility() == Compatibility::additive)
        return w_o->forward(attend_additive(w_q->forward(x), w_k->forward(x), w_v->forward(x), mask));
    Tensor w = concat({w_q->weight, w_k->weight, w_v->weight}, 0);  // [3D, D]
    Tensor b = concat({w_q->bias, w_k->bias, w_v->bias}, 0);        // [3D]
    AttentionOutput a = multi_head_self_attention(linear(x, w, b), heads, mask, dropout->p, dropout->is_training(),
                                                  default_generator(), score_scale());
    last_attention_ = a.weights;
    return w_o->forward(a.z);
}

Tensor MultiHeadAttention::forward_block_local(const Tensor& x, std::int64_t block, Direction direction,
                                               const Tensor& key_mask) const {
    return forward_in_groups("forward_block_local", x, block, false, direction, key_mask);
}

Tensor MultiHeadAttention::forward_strided(const Tensor& x, std::int64_t stride, Direction direction,
                                           const Tensor& key_mask) const {
    return forward_in_groups("forward_strided", x, stride, true, direction, key_mask);
}

// A local pattern's groups, each one batch entry of ordinary attention. Padded to T' =
// groups x len positions; position p of the padded sequence is element t of group g with
//   blocks of L:   g = p / L,  t = p % L     (x [B, T', D] read as [B * T'/L, L, D])
//   stride S:      g = p % S,  t = p / S     (x read as [B, T'/S, S, D], permuted to [B, S, T'/S, D])
// so within a group t grows with p, and causal attention within a group is causal in p.
Tensor MultiHeadAttention::forward_in_groups(const char* what, const Tensor& x, std::int64_t size, bool strided,
                                             Direction direction, const Tensor& key_mask) const {
    check_self_attention(what);
    check_input("x", x, heads * d_k);
    if (size <= 0)
        throw ValueError(fmt::format("MultiHeadAttention: {} needs a positive {}, got {}", what,
                                     strided ? "stride" : "block size", size));
    const std::int64_t B = x.size(0), T = x.size(1), D = x.size(2);
    if (key_mask.defined()) {
        check_dtype("MultiHeadAttention", key_mask, Dtype::int64, "key_mask");
        if (key_mask.dim() != 3 || (key_mask.size(0) != B && key_mask.size(0) != 1) || key_mask.size(1) != 1 ||
            key_mask.size(2) != T)
            throw ShapeError(fmt::format("MultiHeadAttention: {}'s key_mask must be [{} or 1, 1, {}], got {}", what, B, T,
                                         shape_str(key_mask.shape())));
    }
    const std::int64_t len = strided ? (T + size - 1) / size : size, groups = strided ? size : (T + size - 1) / size;
    const std::int64_t padded = len * groups;
    Tensor h = padded == T ? x : concat({x, zeros({B, padded - T, D}, x.dtype())}, 1);  // padding after the end
    if (strided) h = permute(reshape(h, {B, len, groups, D}), {0, 2, 1, 3});
    h = reshape(h, {B * groups, len, D});  // one batch entry per group
    // Which keys of each group are real and not masked: [B * groups, 1, len]. A causal
    // query never sees the padding (it comes after every real position of its group).
    Tensor mask = direction == Direction::causal ? subsequent_mask(len) : Tensor();
    if (key_mask.defined() || (direction == Direction::bidirectional && padded != T)) {
        Tensor keys = zeros({B * groups, 1, len}, Dtype::int64);
        std::int64_t* k = keys.data<std::int64_t>();
        const std::int64_t* m = key_mask.defined() ? key_mask.data<std::int64_t>() : nullptr;
        for (std::int64_t b = 0; b < B; ++b)
            for (std::int64_t g = 0; g < groups; ++g)
                for (std::int64_t t = 0; t < len; ++t) {
                    const std::int64_t p = strided ? t * groups + g : g * len + t;
                    const bool kept = p < T && (!m || m[(key_mask.size(0) == 1 ? 0 : b) * T + p] != 0);
                    k[(b * groups + g) * len + t] = kept;
                }
        mask = mask.defined() ? mask_and(mask, keys) : keys;
    }
    Tensor y = self_attention(h, mask);  // [B * groups, len, D]
    if (strided) y = permute(reshape(y, {B, groups, len, D}), {0, 2, 1, 3});
    y = reshape(y, {B, padded, D});
    return padded == T ? y : narrow(y, 1, 0, T);
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
