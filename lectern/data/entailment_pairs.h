#pragma once
// Premise/hypothesis pairs for attention for entailment (004 §15.4.6), made so that word-by-word
// alignment decides them. Words are facts: the premise states m distinct facts from a list of K
// ("rain", "cold", ...), and a fact's marked negation ("no-rain") denies it. The hypothesis is n
// tokens, and its label follows from comparing each of its tokens with the premise's words:
//   contradiction: one token is the negation of a premise word (its other words are in the premise);
//   neutral:       one token is a word not in the premise, or the negation of a word not in it
//                  (the others in the premise): the premise neither says nor denies it;
//   entailment:    every token is a word of the premise.
// Which one a hypothesis is cannot be read from either sentence alone, nor from whether it holds a
// negation: "no-rain" contradicts a premise with "rain" and is neutral to one without. It is read off
// the alignment of each hypothesis token with the premise word it names (alpha_j of eq. 15.50).
//
// Drawing a pair: the label uniform over the three; m uniform in [min_premise, max_premise] and m
// distinct words in random order; n uniform in [1, min(max_hypothesis, m)]; the hypothesis's words
// distinct premise words (n of them for entailment, n - 1 beside the one foreign or negated token
// otherwise), shuffled. Shorter sentences are padded with 0 at the end.
#include <cstdint>
#include <string>

#include "lectern/autograd/autograd.h"

namespace data {

// Class ids, SNLI's order.
enum EntailmentLabel : std::int64_t { entailed = 0, neutral = 1, contradicted = 2 };
std::string entailment_label_name(std::int64_t label);  // "entailment", "neutral", "contradiction"

struct EntailmentPairsConfig {
    std::int64_t words = 24;  // K facts, at most 32 (the named list) and more than max_premise
    std::int64_t min_premise = 4, max_premise = 8;
    std::int64_t max_hypothesis = 3;
};

// Token ids: 0 the padding, 1..K the words, K+1..2K their negations (word k + K denies word k).
constexpr std::int64_t kEntailmentPad = 0;
std::int64_t entailment_vocab(const EntailmentPairsConfig& config);  // 2K + 1
// "<pad>", the word ("rain") or its negation ("no-rain"); IndexError outside the vocabulary.
std::string entailment_token(const EntailmentPairsConfig& config, std::int64_t id);

struct EntailmentBatch {
    autograd::Tensor premise;     // int64 [B, max_premise]
    autograd::Tensor hypothesis;  // int64 [B, max_hypothesis]
    autograd::Tensor labels;      // int64 [B]
};

// B pairs drawn from `gen` as above. ValueError for a config that cannot be drawn from (K > 32,
// K <= max_premise, min_premise < 1, min_premise > max_premise, max_hypothesis < 1) or B < 1.
EntailmentBatch entailment_batch(const EntailmentPairsConfig& config, std::int64_t batch, autograd::Generator& gen);

}  // namespace data
