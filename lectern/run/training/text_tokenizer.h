#pragma once
// The tokens a text classifier reads, learnt on its training texts: words,
// byte-level BPE subwords, or the UTF-8 bytes themselves.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lectern/data/fortune_categories.h"  // LabelledText

namespace run {

// What a model reads of a text: ids 0 .. size - 1.
struct TextTokenizer {
    std::int64_t size;
    std::function<std::vector<std::int64_t>(const std::string&)> encode;
    std::string description;  // for the run's header: "byte-level BPE, 300 merges learnt on the training fortunes"
};

struct TextTokens {
    std::string kind;             // "words", "bpe" or "chars"
    std::int64_t bpe_vocab;       // bpe: 256 bytes + merges, learnt behind a progress bar (learn_subwords)
    std::int64_t word_min_count;  // words: a word's own id needs this many texts holding it; one id for any other
    std::string texts_name;       // what the texts are, for the description: "training fortunes"
};

TextTokenizer make_text_tokenizer(const TextTokens& tokens, const std::vector<data::LabelledText>& texts);

}  // namespace run
