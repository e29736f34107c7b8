#pragma once
// A character-level corpus: a UTF-8 text, its alphabet, and the windows a
// language model trains on. A "character" is a Unicode code point, so an
// accented letter is one token, not two bytes; the vocabulary is the set of
// code points the text itself uses, in code-point order.
#include <cstdint>
#include <string>
#include <vector>

#include "lectern/autograd/autograd.h"
#include "lectern/data/idx.h"  // DatasetError

namespace data {

// UTF-8 bytes -> code points; DatasetError naming the byte offset of the first
// malformed sequence (a stray continuation byte, a truncated or overlong
// sequence, a surrogate or a value past U+10FFFF).
std::u32string decode_utf8(const std::string& bytes);
std::string encode_utf8(const std::u32string& text);

// A text's token ids, each in the fewest bytes its alphabet needs: one for up
// to 256 characters, two for up to 65,536, else four (a 200 MB English text
// takes 200 MB, not the 1.6 GB of int64 ids).
class TokenIds {
public:
    explicit TokenIds(std::int64_t alphabet_size);
    void reserve(std::size_t n) { bytes_.reserve(n * width_); }
    void push_back(std::int64_t id);
    std::int64_t operator[](std::size_t i) const;
    std::size_t size() const { return bytes_.size() / width_; }
    std::size_t bytes_per_id() const { return width_; }

private:
    std::size_t width_;
    std::vector<unsigned char> bytes_;
};

// Tokens [begin, end) of a TokenIds: the training or the validation part.
struct TokenSpan {
    const TokenIds* ids;
    std::size_t begin, end;
    std::int64_t size() const { return static_cast<std::int64_t>(end - begin); }
    std::int64_t operator[](std::size_t i) const { return (*ids)[begin + i]; }
};

// The alphabet of a text: its distinct code points, ascending; id = index.
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

// A character as a message shows it: printable ones as they are, others as
// their escape or code point ("\n", "U+0007"), so no message spans two lines.
std::string describe_char(char32_t c);

// The default corpus of examples/char_lm: the text files of Debian's
// `fortunes` package in `dir` (normally /usr/share/games/fortunes), in the
// order of kFortuneFiles, concatenated. Within a file entries are separated by
// lines holding only '%'; a '%' line also joins two files. The overstrikes some
// entries use for underlining on a teletype ("_" BACKSPACE "x") and the BEL
// characters are removed, so the text is what a reader sees. DatasetError
// naming the missing file and the package to install.
extern const std::vector<std::string> kFortuneFiles;
std::string read_fortunes(const std::string& dir);
// A whole file as bytes; DatasetError naming the path if it cannot be read,
// if reading fails midway, or if it holds more than `max_bytes` (read no
// further, so an endless device is refused too; the message ends with `limit`,
// what the bound is).
std::string read_text_file(const std::string& path, std::size_t max_bytes = std::size_t{1} << 30,
                           const std::string& limit = "the most this program reads (--max-text-bytes)");

// The teacher-forced batch of B windows of T + 1 tokens starting at `starts`:
// inputs ids[s .. s+T), targets ids[s+1 .. s+T+1) (next-token prediction).
struct TextBatch {
    autograd::Tensor inputs;   // int64 [B, T]
    autograd::Tensor targets;  // int64 [B, T]
};
TextBatch text_batch(const TokenSpan& ids, const std::vector<std::int64_t>& starts, std::int64_t T);

}  // namespace data
