#pragma once
#include <cstdint>

#include "lectern/nn/attention_mask.h"

namespace nn {

// Which keys a self-attention query reads (004 §15.6.1, "fixed non-learnable localized
// attention patterns"): every key, those of the query's own block of L = `size` positions,
// those a multiple of S = `size` positions away (strided), or the hybrid of the two, the
// first H - H/2 heads in blocks of L = `size` and the others strided by S = `stride`
// (nn::hybrid_mask). Causal, a query also reads no key after its own position.
// MultiHeadAttention::self_attention takes it whole; the local patterns are computed group
// by group, never as a [T, T] matrix. The encoder's and the ViT's are bidirectional, a
// GPT's causal.
struct AttentionPattern {
    enum class Kind { full, block_local, strided, hybrid };
    Kind kind = Kind::full;
    std::int64_t size = 0;    // L, the block's length, or S, the stride (the hybrid's L); > 0 unless full
    std::int64_t stride = 0;  // the hybrid's S; 0: S = L
    Direction direction = Direction::bidirectional;

    static AttentionPattern full(Direction d) { return {Kind::full, 0, 0, d}; }
    static AttentionPattern block_local(std::int64_t block, Direction d) { return {Kind::block_local, block, 0, d}; }
    static AttentionPattern strided(std::int64_t stride, Direction d) { return {Kind::strided, stride, 0, d}; }
    static AttentionPattern hybrid(std::int64_t block, std::int64_t stride, Direction d) {
        return {Kind::hybrid, block, stride, d};
    }
    // The hybrid's S (L when `stride` is 0).
    std::int64_t hybrid_stride() const { return stride != 0 ? stride : size; }
};

}  // namespace nn
