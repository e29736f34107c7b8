#pragma once
// Keys and values already projected, kept between decoding steps, so a step projects only its
// new tokens. 000 §15.5.4 note i keeps the layer's inputs instead (its key_value is X, the new
// token's input concatenated to it) and projects them all again at every step
// (docs/notes_to_code.md, the departures). MultiHeadAttention::forward_cached keeps them in one
// of two forms, chosen when the cache is empty:
//   decoding (float32, no gradient, dot-product scores, no dropout): each head's K^T and V in
//     buffers with room ahead, keys_t [B, H, d_k, C] and values_by_head [B, H, C, d_v], of which
//     the first `held` positions are filled. A step writes only its own positions, and
//     autograd::attention_over_cache reads the heads in place; when full, the room doubles.
//   otherwise: keys and values [B, T, D] (the heads side by side), a step's concatenated to
//     them, so that gradients reach back through every step.
#include <cstdint>

#include "lectern/autograd/tensor.h"

namespace nn {

struct KVCache {
    autograd::Tensor keys, values;            // [B, T, H d_k], [B, T, H d_v], or undefined
    autograd::Tensor keys_t, values_by_head;  // [B, H, d_k, C], [B, H, C, d_v], or undefined
    std::int64_t held = 0;                    // positions in keys_t and values_by_head

    bool by_head() const { return keys_t.defined(); }
    std::int64_t length() const { return by_head() ? held : keys.defined() ? keys.size(1) : 0; }
    std::int64_t batch() const { return by_head() ? keys_t.size(0) : keys.defined() ? keys.size(0) : 0; }
    void clear();
    // Appends k_new [B, t, H d_k] and v_new [B, t, H d_v] (float32) to the heads' buffers,
    // making room when they are full (C a multiple of 8, as attention_over_cache reads them).
    void append_by_head(const autograd::Tensor& k_new, const autograd::Tensor& v_new, std::int64_t heads);
    // Keeps the batch entries `rows` (int64 [B']), in that order: beam search's beams.
    void reorder(const autograd::Tensor& rows);
};

}  // namespace nn
