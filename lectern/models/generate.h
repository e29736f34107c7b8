#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "lectern/models/gpt.h"

namespace models {

struct SamplingOptions {
    std::int64_t max_new_tokens = 200;
    double temperature = 1.0;     // 0: greedy (the arg-max); otherwise logits / temperature
    std::int64_t top_k = 0;       // sample among the k most probable tokens; 0: the whole vocabulary
    std::int64_t end_token = -1;  // stop once this token is produced (it is kept); -1: never
    bool use_cache = true;        // false: recompute the whole window every step (the reference)
    // Called with each new token as it is drawn (a program prints it at once);
    // false ends the sampling there, the tokens drawn so far kept. Unset: every token.
    std::function<bool(std::int64_t token)> on_token = nullptr;
};

// Auto-regressive sampling from a GPT (002 "The Big Picture and Takeaways": decoders
// auto-regressively sample the next token): p(x_t | x_<t) = softmax(logits_t / temperature) restricted
// to the top_k tokens; draw x_t with `gen` (the same seed gives the same text),
// append it, repeat. Runs in eval mode without recording a graph.
//
// The window: the model sees at most `context` tokens. When the text outgrows
// it, the window moves forward by half a context at once, so it starts at
//   s = 0 if n <= C, else ceil((n - C) / (C/2)) (C/2)
// for n tokens of text. With the cache (per layer, 000 §15.5.4 note i) a step
// costs one token's work, and the cache is refilled from the window's start
// only when the window moves (every C/2 tokens). Cached and uncached sampling
// compute the same logits, model(x[s:n]), and so give the same tokens.
// (nanoGPT instead crops to the last C tokens at every step and recomputes them;
// here each token is drawn seeing more than C/2 and at most C earlier ones.)
//
// Returns the new tokens, without the prompt (which must be non-empty, each id
// in [0, vocab)).
std::vector<std::int64_t> generate(const GPT& model, const std::vector<std::int64_t>& prompt,
                                   const SamplingOptions& options, autograd::Generator& gen);

// The cache's self-check on a sample already drawn: `tokens` is the prompt (its
// first `prompt_length` tokens) and what followed it. Each later token is fed as
// generate feeds it, with the cache and recomputing the window, and the largest
// difference between the two logits is returned. In float32 the two differ by
// rounding (a sum in another order), which can flip a draw near a tie: so the
// logits are compared, not two samples' texts.
double cache_logit_difference(const GPT& model, const std::vector<std::int64_t>& tokens, std::size_t prompt_length);

// The window's first position for n tokens and context C (above).
std::int64_t window_start(std::int64_t n, std::int64_t context);

}  // namespace models
