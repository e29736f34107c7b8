#include "lectern/data/text_tokens.h"

#include <sstream>
#include <unordered_map>

#include <fmt/format.h>

#include "lectern/data/utf8.h"

namespace data {

TextTokens TextTokens::characters(CharVocab vocab) {
    TextTokens t;
    t.chars_ = std::make_shared<const CharVocab>(std::move(vocab));
    return t;
}

TextTokens TextTokens::subwords(BytePairEncoding bpe) {
    TextTokens t;
    t.bpe_ = std::make_shared<const BytePairEncoding>(std::move(bpe));
    return t;
}

// The merges replayed as train_bpe made them: the 256 bytes, then per merge
// the joined bytes, a new token unless an earlier merge already made them.
TextTokens TextTokens::from_saved(bool subwords, const std::string& saved) {
    if (!subwords) return characters(CharVocab::from_alphabet(decode_utf8(saved)));
    std::vector<std::string> tokens;
    std::unordered_map<std::string, std::int64_t> id_of;
    for (int b = 0; b < 256; ++b) {
        tokens.emplace_back(1, static_cast<char>(b));
        id_of[tokens.back()] = b;
    }
    std::vector<std::pair<std::int64_t, std::int64_t>> merges;
    std::istringstream lines(saved);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream fields(line);
        std::int64_t a = -1, b = -1;
        std::string rest;
        const auto n = static_cast<std::int64_t>(tokens.size());
        if (!(fields >> a >> b) || (fields >> rest) || a < 0 || b < 0 || a >= n || b >= n)
            throw DatasetError(
                fmt::format("saved merges: line {} \"{}\" is not two ids of earlier tokens", merges.size() + 1, line));
        const std::string bytes = tokens[static_cast<std::size_t>(a)] + tokens[static_cast<std::size_t>(b)];
        if (id_of.emplace(bytes, n).second) tokens.push_back(bytes);
        merges.emplace_back(a, b);
    }
    return TextTokens::subwords(BytePairEncoding(std::move(tokens), std::move(merges)));
}

std::int64_t TextTokens::size() const { return bpe_ ? bpe_->vocab_size() : chars_->size(); }

std::string TextTokens::saved() const {
    if (!bpe_) return encode_utf8(chars_->chars());
    std::string text;
    for (const auto& [a, b] : bpe_->merges()) text += fmt::format("{} {}\n", a, b);
    return text;
}

TokenIds TextTokens::encode_text(const std::string& bytes) const {
    if (!bpe_) return chars_->encode_utf8_text(bytes);
    TokenIds ids(bpe_->vocab_size());
    for (std::int64_t id : bpe_->encode(bytes)) ids.push_back(id);
    return ids;
}

std::vector<std::int64_t> TextTokens::encode(const std::string& utf8) const {
    return bpe_ ? bpe_->encode(utf8) : chars_->encode(decode_utf8(utf8));
}

bool TextTokens::can_encode(const std::string& utf8) const {
    if (bpe_) return true;
    for (char32_t c : decode_utf8(utf8))
        if (!chars_->contains(c)) return false;
    return true;
}

std::string TextTokens::decode(const std::vector<std::int64_t>& ids) const {
    return bpe_ ? bpe_->decode(ids) : encode_utf8(chars_->decode(ids));
}

std::string TextTokens::label(std::int64_t id) const {
    const std::string bytes = decode({id});
    try {
        decode_utf8(bytes);
        return bytes;
    } catch (const DatasetError&) {
        std::string escaped;
        for (unsigned char b : bytes) escaped += fmt::format("\\x{:02X}", b);
        return escaped;
    }
}

}  // namespace data
