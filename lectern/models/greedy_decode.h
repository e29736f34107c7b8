#pragma once
#include <cstdint>
#include <vector>

#include "lectern/models/rnn_seq2seq.h"
#include "lectern/models/transformer.h"

namespace models {

struct Decoded {
    Tensor tokens;                      // int64 [B, L <= max_len]: the start symbol, then the chosen tokens
    Tensor log_probs;                   // [B, L - 1]: the log-probability of each chosen token (0 after the end symbol)
    std::vector<std::int64_t> lengths;  // tokens of each sequence, start and end symbols included
};

// Greedy decoding (003 "autoregressive generation"; 000 §15.5.4 note i):
// start from the start symbol, take the most probable next token, feed it
// back, max_len - 1 times. Runs in eval mode without recording a graph.
// With an end symbol (003's algorithm stops at the end token), a sequence that
// has chosen it is finished: its later positions repeat the end symbol with
// log-probability 0, and decoding stops as soon as every sequence is finished
// (L is then the longest length). end_symbol < 0: no end symbol, L = max_len.
//
// The default keeps each decoder layer's keys and values (and the memory's)
// in a cache, so a step costs one token's work.
Decoded greedy_decode(const Transformer& model, const Tensor& src, const Tensor& src_mask, std::int64_t max_len,
                      std::int64_t start_symbol, std::int64_t end_symbol = -1);
// The notes' loop: re-decodes the whole prefix at every step. Gives the same
// tokens and log-probabilities; kept as the reference the cache is tested against.
Decoded greedy_decode_recompute(const Transformer& model, const Tensor& src, const Tensor& src_mask,
                                std::int64_t max_len, std::int64_t start_symbol, std::int64_t end_symbol = -1);

// The same for the RNN encoder-decoder with attention (rnn_seq2seq.h): the encoder once, then one
// decoder step per token, its state s_t carried from step to step (nothing else to cache). The
// source's padding is the model's config.pad. With `weights`, every step's attention alpha_t
// [B, L - 1, S] (003's "attention weights for machine translation").
Decoded greedy_decode(const RnnSeq2Seq& model, const Tensor& src, std::int64_t max_len, std::int64_t start_symbol,
                      std::int64_t end_symbol = -1, Tensor* weights = nullptr);

}  // namespace models
