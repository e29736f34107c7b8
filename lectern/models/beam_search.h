#pragma once
// Beam search (000 §15.5.4 decodes greedily; beam search is its widening, as
// in the Transformer paper's translation runs): instead of the one most
// probable next token, keep the `width` most probable prefixes by their summed
// log-probability log p(y_1..y_t | x) = sum_t log p(y_t | y_<t, x), extend each
// by every token, and keep the `width` best of all width x V extensions.
#include <cstdint>
#include <vector>

#include "lectern/models/transformer.h"

namespace models {

struct BeamHypothesis {
    std::vector<std::int64_t> tokens;  // the start symbol, the chosen tokens, the end symbol if it was chosen
    double log_prob = 0;               // sum of log p of the chosen tokens
    double score = 0;                  // log_prob / lp(length): what the beams are ranked by at the end
};

// One source sequence src int64 [1, S] with src_mask [1, 1, S]. Each step
// runs the live prefixes as one batch through Transformer::decode_step (the
// key/value caches follow their prefix when the beams are reordered). The
// extensions are taken best first (ties: the earlier beam, then the smaller
// token id); one ending in end_symbol is finished, the others stay live until
// `width` are live. Search stops when `width` hypotheses have finished, or at
// max_len tokens, where the live prefixes compete with the finished ones as
// they are. The result
// is the hypothesis of best score, with Wu et al.'s (2016) length penalty
//   lp(n) = ((5 + n) / 6)^length_penalty,   n = tokens after the start symbol
// (0: the plain sum of log-probabilities). With width 1 the search is greedy
// decoding, token for token.
BeamHypothesis beam_search(const Transformer& model, const Tensor& src, const Tensor& src_mask, std::int64_t max_len,
                           std::int64_t start_symbol, std::int64_t end_symbol, std::int64_t width,
                           double length_penalty = 0);

}  // namespace models
