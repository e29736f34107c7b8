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
        throw ValueError(
            fmt::format("MultiHeadAttention: d_model {} must be a positive multiple of heads {}", d_model, h));
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
        throw ShapeError(
            fmt::format("MultiHeadAttention: {} must be [B, T, {}], got {}", what, width, shape_str(x.shape())));
}

void MultiHeadAttention::check_self_attention(const char* what) const {
    if (kdim != heads * d_k || vdim != heads * d_k)
        throw ValueError(
            fmt::format("MultiHeadAttention: {} is self-attention, which needs kdim = vdim = d_model {}, "
                        "not {} and {}",
                        what, heads * d_k, kdim, vdim));
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
    return attend_heads(q, k, v, mask, 0, heads);
}

// The same for heads first .. first + count - 1 alone: q, k, v [B, T, count d_k] hold their columns.
Tensor MultiHeadAttention::attend_heads(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask,
                                        std::int64_t first, std::int64_t count) const {
    if (compatibility() == Compatibility::additive) return attend_additive(q, k, v, mask, first, count);
    AttentionOutput a = multi_head_attention(q, k, v, count, mask, dropout->p, dropout->is_training(),
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
// dropout on P (last_attention keeps P before it), Z = P V, the heads side by side again;
// heads first .. first + count - 1 alone when q, k, v hold only their columns.
Tensor MultiHeadAttention::attend_additive(const Tensor& q, const Tensor& k, const Tensor& values, const Tensor& mask,
                                           std::int64_t first, std::int64_t count) const {
    const std::int64_t B = q.size(0), Tq = q.size(1), Tk = k.size(1);
    auto split = [&](const Tensor& x, std::int64_t T) { return permute(reshape(x, {B, T, count, d_k}), {0, 2, 1, 3}); };
    // The mask is [B or 1, Tq or 1, Tk] (or of lower rank): the same for every head.
    Tensor head_mask = mask.defined() && mask.dim() == 3 ? unsqueeze(mask, 1) : mask;
    Tensor v_heads = count == heads ? v : narrow(v, 0, first, count);
    Tensor p = additive_attention_weights(split(q, Tq), split(k, Tk), reshape(v_heads, {count, 1, 1, d_k}), head_mask);
    last_attention_ = p.detach();
    Tensor z = matmul(dropout->forward(p), split(values, Tk));  // [B, H, Tq, d_k]
    return reshape(permute(z, {0, 2, 1, 3}), {B, Tq, count * d_k});
}

Tensor MultiHeadAttention::forward(const Tensor& query, const Tensor& key, const Tensor& value,
                                   const Tensor& mask) const {
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
Tensor MultiHeadAttention::attend_self(const Tensor& x, const Tensor& mask) const {
    if (compatibility() == Compatibility::additive)
        return w_o->forward(attend_additive(w_q->forward(x), w_k->forward(x), w_v->forward(x), mask, 0, heads));
    Tensor w = concat({w_q->weight, w_k->weight, w_v->weight}, 0);  // [3D, D]
    Tensor b = concat({w_q->bias, w_k->bias, w_v->bias}, 0);        // [3D]
    AttentionOutput a = multi_head_self_attention(linear(x, w, b), heads, mask, dropout->p, dropout->is_training(),
                                                  default_generator(), score_scale());
    last_attention_ = a.weights;
    return w_o->forward(a.z);
}

Tensor MultiHeadAttention::self_attention(const Tensor& x, const Tensor& mask, const AttentionPattern& pattern) const {
    using Kind = AttentionPattern::Kind;
    switch (pattern.kind) {
        case Kind::full:
            break;
        case Kind::block_local:
            return attend_in_groups("block-local self_attention", x, pattern.size, false, pattern.direction, mask);
        case Kind::strided:
            return attend_in_groups("strided self_attention", x, pattern.size, true, pattern.direction, mask);
        case Kind::hybrid:
            return attend_hybrid(x, pattern.size, pattern.hybrid_stride(), pattern.direction, mask);
    }
    check_self_attention("self_attention");
    check_input("x", x, heads * d_k);
    if (pattern.direction == Direction::bidirectional) return attend_self(x, mask);
    const Tensor causal = subsequent_mask(x.size(1));
    return attend_self(x, mask.defined() ? mask_and(causal, mask) : causal);
}

// A local pattern's groups, each one batch entry of ordinary attention. Padded to T' =
// groups x len positions; position p of the padded sequence is element t of group g with
//   blocks of L:   g = p / L,  t = p % L     (h [B, T', C] read as [B * T'/L, L, C])
//   stride S:      g = p % S,  t = p / S     (h read as [B, T'/S, S, C], permuted to [B, S, T'/S, C])
// so within a group t grows with p, and causal attention within a group is causal in p.
struct MultiHeadAttention::Groups {
    std::int64_t B, T, len, groups, padded;
    bool strided;
    Groups(std::int64_t batch, std::int64_t length, std::int64_t size, bool is_strided)
        : B(batch),
          T(length),
          len(is_strided ? (length + size - 1) / size : size),
          groups(is_strided ? size : (length + size - 1) / size),
          padded(len * groups),
          strided(is_strided) {}

    // h [B, T, C] -> [B * groups, len, C], zeros after the end.
    Tensor split(const Tensor& h) const {
        const std::int64_t C = h.size(2);
        Tensor g = padded == T ? h : concat({h, zeros({B, padded - T, C}, h.dtype())}, 1);
        if (strided) g = permute(reshape(g, {B, len, groups, C}), {0, 2, 1, 3});
        return reshape(g, {B * groups, len, C});
    }
    // The inverse: [B * groups, len, C] -> [B, T, C].
    Tensor join(const Tensor& y) const {
        const std::int64_t C = y.size(2);
        Tensor h = strided ? permute(reshape(y, {B, groups, len, C}), {0, 2, 1, 3}) : y;
        h = reshape(h, {B, padded, C});
        return padded == T ? h : narrow(h, 1, 0, T);
    }
    // Which keys of each group a query reads: causal within the group, and only keys that are
    // real and not hidden by key_mask, [B * groups, 1, len]. A causal query never sees the
    // padding (it comes after every real position of its group).
    Tensor mask(Direction direction, const Tensor& key_mask) const {
        Tensor m = direction == Direction::causal ? subsequent_mask(len) : Tensor();
        if (!key_mask.defined() && (direction == Direction::causal || padded == T)) return m;
        Tensor keys = zeros({B * groups, 1, len}, Dtype::int64);
        std::int64_t* k = keys.data<std::int64_t>();
        const std::int64_t* km = key_mask.defined() ? key_mask.data<std::int64_t>() : nullptr;
        for (std::int64_t b = 0; b < B; ++b)
            for (std::int64_t g = 0; g < groups; ++g)
                for (std::int64_t t = 0; t < len; ++t) {
                    const std::int64_t p = strided ? t * groups + g : g * len + t;
                    const bool kept = p < T && (!km || km[(key_mask.size(0) == 1 ? 0 : b) * T + p] != 0);
                    k[(b * groups + g) * len + t] = kept;
                }
        return m.defined() ? mask_and(m, keys) : keys;
    }
};

void MultiHeadAttention::check_local(const char* what, const Tensor& x, std::int64_t size, const char* size_name,
                                     const Tensor& key_mask) const {
    check_self_attention(what);
    check_input("x", x, heads * d_k);
    if (size <= 0)
        throw ValueError(fmt::format("MultiHeadAttention: {} needs a positive {}, got {}", what, size_name, size));
    const std::int64_t B = x.size(0), T = x.size(1);
    if (key_mask.defined()) {
        check_dtype("MultiHeadAttention", key_mask, Dtype::int64, "key_mask");
        if (key_mask.dim() != 3 || (key_mask.size(0) != B && key_mask.size(0) != 1) || key_mask.size(1) != 1 ||
            key_mask.size(2) != T)
            throw ShapeError(fmt::format("MultiHeadAttention: {}'s key_mask must be [{} or 1, 1, {}], got {}", what, B,
                                         T, shape_str(key_mask.shape())));
    }
}

// Each group one batch entry of self-attention; x is grouped before the projections, which
// act on each position alone.
Tensor MultiHeadAttention::attend_in_groups(const char* what, const Tensor& x, std::int64_t size, bool strided,
                                            Direction direction, const Tensor& key_mask) const {
    check_local(what, x, size, strided ? "stride" : "block size", key_mask);
    const Groups groups(x.size(0), x.size(1), size, strided);
    return groups.join(attend_self(groups.split(x), groups.mask(direction, key_mask)));  // [B * groups, len, D] inside
}

// The hybrid splits the heads rather than taking the union of the two patterns in every head
// (Child et al.'s "merged" head): a head that reads its block and its stride has no groups of
// equal length to batch, so the union would run as full attention under a mask, O(T^2), or
// as a gather of L + T/S keys per query with an op of its own. Split by head, each head is
// one of the patterns above, computed per group: the block heads cost O(T L), the strided heads
// O(T^2 / S), both O(T sqrt T) at L = S = sqrt T. With S <= L every block holds every residue
// mod S, and in both directions a position then reaches every other within two layers: a
// strided head carries x_j to the position of j's residue in i's block and a block head
// carries it on to i (or a block head first, to i's residue in j's block, when i's block is
// the short last one). Causal with S = L, both hops only move forward in the residue mod L
// (a block hop to j' >= j in the block, a strided hop keeps it), so position i never hears
// from an earlier j with a larger residue at any depth; Child et al.'s causal hybrid reads a
// sliding window of the previous L positions instead of a block for that reason.
Tensor MultiHeadAttention::attend_hybrid(const Tensor& x, std::int64_t block, std::int64_t stride, Direction direction,
                                         const Tensor& key_mask) const {
    check_local("hybrid self_attention", x, block, "block size", key_mask);
    check_local("hybrid self_attention", x, stride, "stride", key_mask);
    if (heads < 2)
        throw ValueError(
            fmt::format("MultiHeadAttention: hybrid self_attention splits the heads in two, so needs at least "
                        "2, got {}",
                        heads));
    const std::int64_t B = x.size(0), T = x.size(1), block_heads = hybrid_block_heads(heads);
    const Tensor q = w_q->forward(x), k = w_k->forward(x), v = w_v->forward(x);  // [B, T, D], the heads side by side
    std::vector<Tensor> z;
    for (const bool strided : {false, true}) {
        const std::int64_t first = strided ? block_heads : 0, count = strided ? heads - block_heads : block_heads;
        const Groups groups(B, T, strided ? stride : block, strided);
        auto part = [&](const Tensor& h) { return groups.split(narrow(h, 2, first * d_k, count * d_k)); };
        z.push_back(
            groups.join(attend_heads(part(q), part(k), part(v), groups.mask(direction, key_mask), first, count)));
    }
    return w_o->forward(concat(z, 2));
}

// Whether `cache` keeps its heads in place for decoding (nn/kv_cache.h): chosen when it is
// empty, by what this call computes; a cache so filled cannot go on under gradients.
bool MultiHeadAttention::decodes_by_head(const KVCache& cache, Dtype dtype) const {
    const bool decoding = compatibility() == Compatibility::dot && dtype == Dtype::float32 && !grad_enabled() &&
                          !(dropout->is_training() && dropout->p > 0);
    if (cache.length() == 0) return decoding;
    if (cache.by_head() && !decoding)
        throw ValueError(
            "MultiHeadAttention: this cache was filled for decoding (float32, no gradient, no dropout); clear() it "
            "before going on with gradients or dropout");
    return cache.by_head();
}

Tensor MultiHeadAttention::attend_cache(const Tensor& q, const KVCache& cache, const Tensor& mask) const {
    AttentionOutput a = attention_over_cache(q, cache.keys_t, cache.values_by_head, cache.held, mask, score_scale());
    last_attention_ = a.weights;
    return a.z;
}

Tensor MultiHeadAttention::forward_cached(const Tensor& x_new, KVCache& cache, const Tensor& mask) const {
    check_self_attention("forward_cached");
    check_input("x_new", x_new, heads * d_k);
    if (cache.length() > 0 && cache.batch() != x_new.size(0))
        throw ShapeError(
            fmt::format("MultiHeadAttention: cache holds batch {}, input {}", cache.batch(), shape_str(x_new.shape())));
    Tensor k = w_k->forward(x_new), v = w_v->forward(x_new);
    if (decodes_by_head(cache, k.dtype())) {
        cache.append_by_head(k, v, heads);
        return w_o->forward(attend_cache(w_q->forward(x_new), cache, mask));
    }
    if (cache.length() > 0) {
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
            throw ValueError(
                fmt::format("MultiHeadAttention: forward_memory_cached reads keys and values from one memory, "
                            "but kdim {} != vdim {}",
                            kdim, vdim));
        check_input("memory", memory, kdim);
        Tensor k = w_k->forward(memory), v = w_v->forward(memory);
        if (decodes_by_head(cache, k.dtype())) cache.append_by_head(k, v, heads);
        else cache.keys = k, cache.values = v;
    }
    if (decodes_by_head(cache, query.dtype())) return w_o->forward(attend_cache(w_q->forward(query), cache, mask));
    return w_o->forward(attend(w_q->forward(query), cache.keys, cache.values, mask));
}

}  // namespace nn
