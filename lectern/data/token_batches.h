#pragma once
// Labelled texts as token ids, and batches of them for a classifier: the
// fortunes text_classifier reads, tokenised once and drawn by rows.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "lectern/autograd/random.h"
#include "lectern/autograd/tensor.h"
#include "lectern/data/fortune_categories.h"  // LabelledText
#include "lectern/data/word_tokens.h"

namespace data {

// Texts as ids shifted by one (0 pads), each cut to a longest length, and their labels.
struct TokenizedTexts {
    std::vector<std::vector<std::int64_t>> ids;
    std::vector<std::int64_t> labels;
    std::int64_t truncated = 0;  // texts longer than the limit, cut to it
};

TokenizedTexts tokenize_texts(const std::vector<LabelledText>& texts,
                              const std::function<std::vector<std::int64_t>(const std::string&)>& encode,
                              std::int64_t max_len);

// ids [B, longest] padded with 0, and labels [B], of `rows`. With `drop` > 0
// (training only) each token is left out with that probability, the first
// always kept: a text seen twice is seen as two texts, which a model cannot
// memorise. `gen` draws the drops.
std::pair<autograd::Tensor, autograd::Tensor> token_batch(const TokenizedTexts& texts,
                                                          const std::vector<std::size_t>& rows, double drop = 0,
                                                          autograd::Generator* gen = nullptr);

// The bag of words of each text: the sorted ids of the distinct words of `vocab` it holds.
std::vector<std::vector<std::int64_t>> bags_of_words(const WordVocabulary& vocab,
                                                     const std::vector<LabelledText>& texts);

// A split's bags of words over the `words` held by at least `min_count` of
// its training texts (WordVocabulary): what a bag-of-words baseline reads.
struct SplitBags {
    std::int64_t words;
    std::vector<std::vector<std::int64_t>> train, validation, test;
};
SplitBags split_bags_of_words(const FortuneSplit& split, std::int64_t min_count);

// x [B, V] of bags of words (sorted distinct word ids): 1 / sqrt(n) at the n
// words a text holds, a unit vector, and 0 elsewhere.
autograd::Tensor bag_of_words_batch(const std::vector<std::vector<std::int64_t>>& bags,
                                    const std::vector<std::size_t>& rows, std::int64_t V);

}  // namespace data
