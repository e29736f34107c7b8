#pragma once
// A character-level corpus: a UTF-8 text, its alphabet, and the windows a
// language model trains on. A "character" is a Unicode code point, so an
// accented letter is one token, not two bytes; the vocabulary is the set of
// code points the text itself uses, in code-point order.
#include <cstdint>
#include <string>
#include <vector>

#include "autograd/autograd.h"
#include "data/idx.h"  // DatasetError

namespace data {

// UTF-8 bytes -> code points; DatasetError naming the byte offset of the first
// malformed sequence (a stray continuation byte, a truncated or overlong
// sequence, a surrogate or a value past U+10FFFF).
std::u32string decode_utf8(const std::string& bytes);
std::string encode_utf8(const std::u32string& text);

// The alphabet of a text: its distinct code points, ascending; id = index.
class CharVocab {
public:
    explicit CharVocab(const std::u32string& text);
    std::int64_t size() const { return static_cast<std::int64_t>(chars_.size()); }
    bool contains(char32_t c) const;
    // DatasetError naming the character (and its code point) if it is not in the alphabet.
    std::vector<std::int64_t> encode(const std::u32string& text) const;
    std::u32string decode(const std::vector<std::int64_t>& ids) const;  // IndexError for an id outside [0, size)

private:
    std::u32string chars_;
};

// The default corpus of examples/char_lm: the text files of Debian's
// `fortunes` package in `dir` (normally /usr/share/games/fortunes), in the
// order of kFortuneFiles, concatenated. Within a file entries are separated by
// lines holding only '%'; a '%' line also joins two files. The overstrikes some
// entries use for underlining on a teletype ("_" BACKSPACE "x") and the BEL
// characters are removed, so the text is what a reader sees. DatasetError
// naming the missing file and the package to install.
extern const std::vector<std::string> kFortuneFiles;
std::string read_fortunes(const std::string& dir);
// A whole file as bytes; DatasetError naming the path if it cannot be read.
std::string read_text_file(const std::string& path);

// The teacher-forced batch of B windows of T + 1 tokens starting at `starts`:
// inputs ids[s .. s+T), targets ids[s+1 .. s+T+1) (next-token prediction).
struct TextBatch {
    autograd::Tensor inputs;   // int64 [B, T]
    autograd::Tensor targets;  // int64 [B, T]
};
TextBatch text_batch(const std::vector<std::int64_t>& ids, const std::vector<std::int64_t>& starts, std::int64_t T);

}  // namespace data
