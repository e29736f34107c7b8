#include "lectern/run/training/text_tokenizer.h"

#include <memory>

#include <fmt/format.h>

#include "lectern/data/train_bpe.h"
#include "lectern/data/word_tokens.h"
#include "lectern/run/training/learn_subwords.h"

namespace run {

TextTokenizer make_text_tokenizer(const TextTokens& tokens, const std::vector<data::LabelledText>& texts) {
    if (tokens.kind == "words") {
        std::vector<std::string> all;
        for (const auto& t : texts) all.push_back(t.text);
        auto vocab = std::make_shared<data::WordVocabulary>(all, tokens.word_min_count);
        const std::int64_t unknown = vocab->size();
        return {unknown + 1,
                [vocab, unknown](const std::string& text) {
                    std::vector<std::int64_t> ids = vocab->encode(text, unknown);
                    if (ids.empty()) ids.push_back(unknown);  // a text of punctuation alone: one unknown word
                    return ids;
                },
                fmt::format("words held by at least {} of the {}, and one id for any other word", tokens.word_min_count,
                            tokens.texts_name)};
    }
    std::string bpe_text;
    for (const auto& t : texts) bpe_text += t.text + "\n";
    const bool subwords = tokens.kind == "bpe";
    auto bpe = std::make_shared<data::BytePairEncoding>(
        subwords ? learn_subwords(bpe_text, tokens.bpe_vocab, "--bpe-vocab", fmt::format("the {}", tokens.texts_name))
                 : data::train_bpe(bpe_text, 256));
    return {bpe->vocab_size(), [bpe](const std::string& text) { return bpe->encode(text); },
            subwords
                ? fmt::format("byte-level BPE, {} merges learnt on the {}", bpe->merges().size(), tokens.texts_name)
                : std::string("characters (UTF-8 bytes)")};
}

}  // namespace run
