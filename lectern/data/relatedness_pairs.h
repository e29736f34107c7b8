#pragma once
// Sentence pairs graded for relatedness, for the STS variant of attention for entailment (004
// §15.4.6 after eq. 15.53, where the STS Benchmark grades pairs from 0, unrelated, to 5, the same
// meaning; the Benchmark is not a Debian package, so this set is synthetic). A sentence says a few
// concepts out of K, each written as either of two synonyms, among function words that say nothing
// ("the", "of", ...). The grade is how much the two sentences say in common:
//   y = 5 |C_A ∩ C_B| / |C_A ∪ C_B|          C_A, C_B the sentences' sets of concepts
// (5 times their Jaccard index), whichever synonym wrote a concept and whatever function words
// stand between. Counting shared surface words gets it wrong both ways: a shared concept written
// with two synonyms looks unshared, and a shared function word looks like a shared meaning.
//
// Drawing a pair: n_A and n_B content words uniform in [min_content, max_content]; the number
// shared, s, uniform in [0, min(n_A, n_B)] (so the grades spread over the scale); C_A n_A distinct
// concepts, C_B s of them and n_B - s others; each concept written by either synonym (a fair coin,
// drawn for each sentence anew); then 0..max_function function words, each any of F; the sentence
// shuffled and padded with 0 at the end.
#include <cstdint>

#include "lectern/autograd/autograd.h"

namespace data {

struct RelatednessPairsConfig {
    std::int64_t concepts = 24;       // K, each with two synonyms
    std::int64_t function_words = 6;  // F
    std::int64_t min_content = 3, max_content = 6;
    std::int64_t max_function = 3;
};

// Token ids: 0 the padding, 1..K concept k's first synonym, K+1..2K its second (id k + K), 2K+1..2K+F
// the function words.
constexpr std::int64_t kRelatednessPad = 0;
std::int64_t relatedness_vocab(const RelatednessPairsConfig& config);   // 2K + F + 1
std::int64_t relatedness_length(const RelatednessPairsConfig& config);  // max_content + max_function
// The concept a token writes (0..K-1), or -1 for padding and function words.
std::int64_t relatedness_concept(const RelatednessPairsConfig& config, std::int64_t id);

struct RelatednessBatch {
    autograd::Tensor first, second;  // int64 [B, max_content + max_function]
    autograd::Tensor relatedness;    // float32 [B], each y in [0, 5]
};

// B pairs drawn from `gen` as above. ValueError for a config that cannot be drawn from
// (K < 2 max_content, F < 1 with max_function > 0, min_content < 1, min_content > max_content,
// max_function < 0) or B < 1.
RelatednessBatch relatedness_batch(const RelatednessPairsConfig& config, std::int64_t batch, autograd::Generator& gen);

}  // namespace data
