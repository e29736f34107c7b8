#pragma once
// Attention masks: int64 tensors, nonzero where a query may attend to a key.
#include <cstdint>

#include "lectern/autograd/autograd.h"

namespace nn {

// Whether a query sees only keys at or before its own position (the decoder's, 002's M) or
// every key its pattern allows (the encoder's and the ViT's).
enum class Direction { causal, bidirectional };

// [1, n, n] with 1 where key j <= query i: the decoder's causal mask
// (001 subsequent_mask; 002's M with -inf above the diagonal).
autograd::Tensor subsequent_mask(std::int64_t n);
// [1, queries, past + queries]: query i sits at position past + i and may
// attend to key j when j <= past + i (causal); with block L > 0 also only when
// j is in the query's own block of L positions, floor(j / L) == floor((past + i) / L)
// (block-local attention, 004 §15.6.1: a sequence of N cut into K = N / L blocks). past > 0 is incremental
// decoding: the keys of the first `past` positions are cached.
autograd::Tensor causal_mask(std::int64_t queries, std::int64_t past = 0, std::int64_t block = 0);
// [1, n, n]: attention within blocks of L positions (004 §15.6.1), query i to key j when
// floor(i / L) == floor(j / L); causal (causal_mask(n, 0, L)) also only when j <= i.
autograd::Tensor block_local_mask(std::int64_t n, std::int64_t block, Direction direction = Direction::causal);
// [1, n, n]: the strided (dilated) pattern of 004 §15.6.1: query i to key j when
// (i - j) mod S == 0, every S-th position; causal also only when j <= i. Its groups are
// the residues mod S, so it is block-local attention on the positions read S apart.
autograd::Tensor strided_mask(std::int64_t n, std::int64_t stride, Direction direction = Direction::causal);
// [H, n, n]: the hybrid of 004 §15.6.1 ("several fixed attention patterns combined"), split by
// head as in Child et al.'s factorised attention [Chi+19b]: heads 0 .. H - H/2 - 1 read
// block_local_mask(n, L) and the other H/2 heads strided_mask(n, S). Head h's mask is row h;
// MultiHeadAttention::self_attention with AttentionPattern::hybrid. Needs H >= 2.
autograd::Tensor hybrid_mask(std::int64_t n, std::int64_t block, std::int64_t stride, std::int64_t heads,
                             Direction direction = Direction::causal);
// How many of H heads the hybrid gives the block-local pattern (the rest are strided): H - H/2.
inline std::int64_t hybrid_block_heads(std::int64_t heads) { return heads - heads / 2; }
// ids [B, T] -> [B, 1, T], 1 where ids != pad: no query attends to padding.
autograd::Tensor padding_mask(const autograd::Tensor& ids, std::int64_t pad);
// Elementwise AND of two masks that broadcast together (padding and causal).
autograd::Tensor mask_and(const autograd::Tensor& a, const autograd::Tensor& b);

}  // namespace nn
