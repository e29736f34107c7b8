#pragma once
// UTF-8: bytes to Unicode code points and back. A "character" of a character-level
// corpus is a code point, so an accented letter is one token, not two bytes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lectern/data/idx.h"  // DatasetError

namespace data {

// UTF-8 bytes -> code points; DatasetError naming the byte offset of the first
// malformed sequence (a stray continuation byte, a truncated or overlong
// sequence, a surrogate or a value past U+10FFFF).
std::u32string decode_utf8(const std::string& bytes);
std::string encode_utf8(const std::u32string& text);

// A character as a message shows it: printable ones as they are, others as
// their escape or code point ("\n", "U+0007"), so no message spans two lines.
std::string describe_char(char32_t c);

// Throw decode_utf8's DatasetError for the sequence at byte `at`; with `c`, the value it
// decodes to, which is overlong, a surrogate or past U+10FFFF.
[[noreturn]] void malformed_utf8(std::size_t at);
[[noreturn]] void malformed_utf8(std::size_t at, char32_t c);

// Calls f(code point, byte offset) for each character of UTF-8 `bytes`, without a
// decoded copy (an alphabet of 200 MB of text is read in one pass); throws as decode_utf8
// at the first malformed sequence.
template <class F>
void for_each_code_point(const std::string& bytes, F f) {
    const auto n = bytes.size();
    for (std::size_t i = 0; i < n;) {
        const auto b0 = static_cast<unsigned char>(bytes[i]);
        // the sequence length from the lead byte, and the smallest code point it may encode
        const std::size_t len = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xE ? 3 : (b0 >> 3) == 0x1E ? 4 : 0;
        const char32_t least = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
        if (len == 0 || i + len > n) malformed_utf8(i);
        char32_t c = len == 1 ? b0 : b0 & (0x7F >> len);
        for (std::size_t k = 1; k < len; ++k) {
            const auto b = static_cast<unsigned char>(bytes[i + k]);
            if ((b >> 6) != 0x2) malformed_utf8(i);
            c = (c << 6) | (b & 0x3F);
        }
        if ((len > 1 && c < least) || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) malformed_utf8(i, c);
        f(c, i);
        i += len;
    }
}

}  // namespace data
