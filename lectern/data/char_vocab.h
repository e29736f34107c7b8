#pragma once
// The alphabet of a character-level corpus: the set of code points the text
// itself uses, in code-point order, each a token.
#include <cstdint>
#include <string>
#include <vector>

#include "lectern/data/idx.h"  // DatasetError
#include "lectern/data/token_ids.h"

namespace data {

// A text's distinct code points, ascending; id = index.
class CharVocab {
public:
    // The alphabet of UTF-8 `bytes`, in one pass without decoding them into a
    // copy; DatasetError at the first malformed sequence, as decode_utf8.
    static CharVocab of_utf8(const std::string& bytes);
    // A saved alphabet (chars(), e.g. from a checkpoint): DatasetError unless
    // its code points ascend strictly.
    static CharVocab from_alphabet(const std::u32string& chars);
    const std::u32string& chars() const { return chars_; }
    std::int64_t size() const { return static_cast<std::int64_t>(chars_.size()); }
    bool contains(char32_t c) const;
    // DatasetError naming the character (and its code point) if it is not in the alphabet.
    std::vector<std::int64_t> encode(const std::u32string& text) const;
    std::u32string decode(const std::vector<std::int64_t>& ids) const;  // IndexError for an id outside [0, size)
    // UTF-8 bytes straight to ids; DatasetError naming the first character
    // outside the alphabet and its byte offset.
    TokenIds encode_utf8_text(const std::string& bytes) const;

private:
    CharVocab() = default;
    void index();  // fills id_of_
    std::u32string chars_;
    std::vector<std::int32_t> id_of_;  // code point -> id, -1 if absent; as long as the largest code point + 1
};

}  // namespace data
