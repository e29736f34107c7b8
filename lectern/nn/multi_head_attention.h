#pragma once
#include <memory>
#include <optional>

#include "lectern/nn/attention_mask.h"
#include "lectern/nn/attention_pattern.h"
#include "lectern/nn/dropout.h"
#include "lectern/nn/kv_cache.h"
#include "lectern/nn/linear.h"

namespace nn {

// The compatibility function of a query and a key (001 "Scaled Dot-Product Attention"): the dot
// product q.k (scaled by 1/sqrt(d_k) or not), or additive attention, v^T tanh(q + k)
// (nn/additive_attention.h).
enum class Compatibility { dot, additive };

// Multi-head attention (001 "Multi-head attention"; 004 §15.5.2 eq. 15.55-15.56;
// 002 "Multi-Head Self-Attention"):
//   head_i = softmax(Q W_i^Q (K W_i^K)^T / sqrt(d_k) + M) V W_i^V,
//   MultiHead(Q, K, V) = Concat(head_1, ..., head_h) W^O,   d_k = d_model / h.
// All heads run in one op, autograd::multi_head_attention, which reads each head's
// columns of Q W^Q, K W^K and V W^V in place: the equations of every head, the scale,
// the mask, the softmax and dropout on P are in autograd/ops/attention.cpp.
// nn::scaled_dot_product_attention is the same equation on one head, composed of
// plain ops; tests check the two agree.
// Keys and values may come from inputs of other widths than the queries' (003 "Scaled
// dot-product attention": queries from X of width d_X, keys and values from Y of width
// d_Y; PyTorch's kdim and vdim): W^K is then [kdim -> d_model], W^V [vdim -> d_model].
// Masks are int64, nonzero = may attend, broadcastable to [B, Tq, Tk]: padding
// [B, 1, Tk], causal [1, Tq, Tk] (subsequent_mask), or both (mask_and). The
// same mask applies to every head.
class MultiHeadAttention : public Module {
public:
    MultiHeadAttention(std::int64_t d_model, std::int64_t heads, double dropout = 0.0,
                       autograd::Generator& gen = autograd::default_generator());
    // Keys of width kdim, values of width vdim (both d_model above).
    MultiHeadAttention(std::int64_t d_model, std::int64_t heads, std::int64_t kdim, std::int64_t vdim,
                       double dropout = 0.0, autograd::Generator& gen = autograd::default_generator());

    // query [B, Tq, D], key [B, Tk, kdim] and value [B, Tk, vdim] -> [B, Tq, D]: three projections.
    Tensor forward(const Tensor& query, const Tensor& key, const Tensor& value, const Tensor& mask = Tensor()) const;
    Tensor operator()(const Tensor& query, const Tensor& key, const Tensor& value,
                      const Tensor& mask = Tensor()) const {
        return forward(query, key, value, mask);
    }
    // Self-attention, x [B, T, D] -> [B, T, D], its queries reading the keys `pattern` allows and
    // `mask` does not hide. Equals forward(x, x, x, M) by value, M the pattern's mask
    // (block_local_mask, strided_mask, or per head hybrid_mask; subsequent_mask when full and
    // causal) AND `mask`. Needs kdim = vdim = d_model.
    //   full: `mask` broadcastable to [B, T, T] (padding [B, 1, T], the decoder's padding AND
    //     causal mask, ...). Q, K and V are projected in one product, x [W^Q; W^K; W^V]^T
    //     (PyTorch's in_proj), which autograd::multi_head_self_attention reads in place.
    //   block-local (004 §15.6.1): position i reads only its own block of L = pattern.size
    //     positions. The notes chunk a sequence of N into K blocks of N/K and get O(N^2 / K)
    //     instead of the O(N^2 d) of table 15.1; here the argument is the block's length
    //     L = N/K, the cost O(N L). x is cut into ceil(T/L) blocks (the last padded with zeros,
    //     which no real query attends to), each block one batch entry [B * T/L, L, D] of
    //     ordinary attention, so the scores are [B * T/L, H, L, L], never [T, T].
    //   strided (004 §15.6.1): position i reads only the positions i + m S, S = pattern.size.
    //     Its groups are the S residues mod S, each ceil(T/S) long: x is read as
    //     [B, T/S, S, D], permuted to [B * S, T/S, D], and each group is one batch entry of
    //     ordinary attention; the scores are [B * S, H, T/S, T/S].
    //   hybrid (004 §15.6.1, "several fixed attention patterns combined"; Child et al.'s
    //     factorised heads): the first H - H/2 heads block-local over blocks of L = pattern.size,
    //     the other H/2 strided with S = pattern.hybrid_stride(), each half computed per group
    //     as above, their heads side by side before W^O. Needs H >= 2.
    // Under a local pattern `mask` may only hide keys: [B or 1, 1, T] (padding_mask's), and
    // last_attention() is per group: [B * T/L, H, L, L], [B * S, H, T/S, T/S], or the hybrid's
    // strided heads' [B * S, H/2, T/S, T/S].
    Tensor self_attention(const Tensor& x, const Tensor& mask = Tensor(), const AttentionPattern& pattern = {}) const;
    // Incremental self-attention: x_new [B, t, D] holds the newest positions;
    // their keys and values are appended to `cache` and they attend over every
    // cached position (add a mask for t > 1). Equals forward() on the whole prefix.
    Tensor forward_cached(const Tensor& x_new, KVCache& cache, const Tensor& mask = Tensor()) const;
    // Cross-attention whose keys and values (the encoder memory's) are projected
    // once, on the first call, and reused from `cache` afterwards (needs kdim = vdim).
    Tensor forward_memory_cached(const Tensor& query, const Tensor& memory, KVCache& cache,
                                 const Tensor& mask = Tensor()) const;

    // The attention weights P of the last forward, [B, H, Tq, Tk] (for plots).
    Tensor last_attention() const { return last_attention_; }

    std::shared_ptr<Linear> w_q, w_k, w_v, w_o;
    std::shared_ptr<Dropout> dropout;
    std::int64_t heads, d_k, kdim, vdim;
    // P = softmax(Q K^T / sqrt(d_k) + M) when true (001); false drops the scale,
    // P = softmax(Q K^T + M) (001's "dot-product attention"; 002 "Why Use the 1/sqrt(D_K) Scaling?").
    // Dot-product scores only.
    bool scaled = true;

    // Scores each head by additive attention from now on (001; nn/additive_attention.h):
    //   head_h: e_ij = v_h^T tanh(q_i W_h^Q + k_j W_h^K),   P = softmax(E + M),
    // W_h^Q and W_h^K the head's columns of w_q and w_k, v_h row h of the new parameter "v"
    // [H, d_k], drawn from U(-1/sqrt(d_k), 1/sqrt(d_k)) by `gen`. The heads run as composed ops,
    // not the fused op; `scaled` no longer applies.
    void use_additive_scores(autograd::Generator& gen = autograd::default_generator());
    Compatibility compatibility() const { return v.defined() ? Compatibility::additive : Compatibility::dot; }
    Tensor v;  // [H, d_k] with additive scores, else undefined

private:
    Tensor attend(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask) const;
    bool decodes_by_head(const KVCache& cache, autograd::Dtype dtype) const;
    Tensor attend_cache(const Tensor& q, const KVCache& cache, const Tensor& mask) const;
    Tensor attend_heads(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask, std::int64_t first,
                        std::int64_t count) const;
    Tensor attend_additive(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask, std::int64_t first,
                           std::int64_t count) const;
    std::optional<double> score_scale() const;
    struct Groups;
    void check_local(const char* what, const Tensor& x, std::int64_t size, const char* size_name,
                     const Tensor& key_mask) const;
    Tensor attend_self(const Tensor& x, const Tensor& mask) const;
    Tensor attend_in_groups(const char* what, const Tensor& x, std::int64_t size, bool strided, Direction direction,
                            const Tensor& key_mask) const;
    Tensor attend_hybrid(const Tensor& x, std::int64_t block, std::int64_t stride, Direction direction,
                         const Tensor& key_mask) const;
    void check_input(const char* what, const Tensor& x, std::int64_t width) const;
    void check_self_attention(const char* what) const;
    mutable Tensor last_attention_;
};

}  // namespace nn
