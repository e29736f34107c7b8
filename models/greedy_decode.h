#pragma once
#include <cstdint>

#include "models/transformer.h"

namespace models {

struct Decoded {
    Tensor tokens;     // int64 [B, max_len]: the start symbol, then max_len - 1 chosen tokens
    Tensor log_probs;  // [B, max_len - 1]: the log-probability of each chosen token
};

// Greedy decoding (003 "autoregressive generation"; 000 §15.5.4 note i):
// start from the start symbol, take the most probable next token, feed it
// back, max_len - 1 times. Runs in eval mode without recording a graph.
//
// The default keeps each decoder layer's keys and values (and the memory's)
// in a cache, so a step costs one token's work.
Decoded greedy_decode(const Transformer& model, const Tensor& src, const Tensor& src_mask, std::int64_t max_len,
                      std::int64_t start_symbol);
// The notes' loop: re-decodes the whole prefix at every step. Gives the same
// tokens and log-probabilities; kept as the reference the cache is tested against.
Decoded greedy_decode_recompute(const Transformer& model, const Tensor& src, const Tensor& src_mask,
                                std::int64_t max_len, std::int64_t start_symbol);

}  // namespace models
