#include "lectern/data/char_vocab.h"

#include <fmt/format.h>

#include "lectern/data/utf8.h"

namespace data {

CharVocab CharVocab::of_utf8(const std::string& bytes) {
    std::vector<bool> present(0x110000, false);
    for_each_code_point(bytes, [&](char32_t c, std::size_t) { present[c] = true; });
    CharVocab v;
    for (char32_t c = 0; c < 0x110000; ++c)
        if (present[c]) v.chars_.push_back(c);
    v.index();
    return v;
}

TokenIds CharVocab::encode_utf8_text(const std::string& bytes) const {
    TokenIds ids(size());
    ids.reserve(bytes.size());
    for_each_code_point(bytes, [&](char32_t c, std::size_t at) {
        if (!contains(c))
            throw DatasetError(fmt::format("the character {} at byte {} is not in the alphabet", describe_char(c), at));
        ids.push_back(id_of_[c]);
    });
    return ids;
}

CharVocab CharVocab::from_alphabet(const std::u32string& chars) {
    for (std::size_t i = 0; i < chars.size(); ++i)
        if (chars[i] >= 0x110000 || (i > 0 && chars[i] <= chars[i - 1]))
            throw DatasetError(
                fmt::format("CharVocab: a saved alphabet must list distinct code points in order; "
                            "{} at place {} does not",
                            describe_char(chars[i]), i));
    CharVocab v;
    v.chars_ = chars;
    v.index();
    return v;
}

void CharVocab::index() {
    id_of_.assign(chars_.empty() ? 0 : chars_.back() + 1, -1);
    for (std::size_t i = 0; i < chars_.size(); ++i) id_of_[chars_[i]] = static_cast<std::int32_t>(i);
}

bool CharVocab::contains(char32_t c) const { return c < id_of_.size() && id_of_[c] >= 0; }

std::vector<std::int64_t> CharVocab::encode(const std::u32string& text) const {
    std::vector<std::int64_t> ids(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char32_t c = text[i];
        if (!contains(c))
            throw DatasetError(
                fmt::format("CharVocab: the character {} is not in the text's alphabet", describe_char(c)));
        ids[i] = id_of_[c];
    }
    return ids;
}

std::u32string CharVocab::decode(const std::vector<std::int64_t>& ids) const {
    std::u32string text;
    for (std::int64_t id : ids) {
        if (id < 0 || id >= size())
            throw autograd::IndexError(fmt::format("CharVocab: id {} is outside the alphabet [0, {})", id, size()));
        text.push_back(chars_[static_cast<std::size_t>(id)]);
    }
    return text;
}

}  // namespace data
