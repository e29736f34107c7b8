#include "lectern/data/utf8.h"

#include <fmt/format.h>

namespace data {

void malformed_utf8(std::size_t at) { throw DatasetError(fmt::format("decode_utf8: malformed UTF-8 at byte {}", at)); }

void malformed_utf8(std::size_t at, char32_t c) {
    throw DatasetError(fmt::format("decode_utf8: malformed UTF-8 at byte {} (code point U+{:04X})", at,
                                   static_cast<std::uint32_t>(c)));
}

std::u32string decode_utf8(const std::string& bytes) {
    std::u32string out;
    out.reserve(bytes.size());
    for_each_code_point(bytes, [&](char32_t c, std::size_t) { out.push_back(c); });
    return out;
}

std::string encode_utf8(const std::u32string& text) {
    std::string out;
    for (char32_t c : text) {
        if (c < 0x80) {
            out.push_back(static_cast<char>(c));
        } else if (c < 0x800) {
            out.push_back(static_cast<char>(0xC0 | (c >> 6)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        } else if (c < 0x10000) {
            out.push_back(static_cast<char>(0xE0 | (c >> 12)));
            out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        } else {
            out.push_back(static_cast<char>(0xF0 | (c >> 18)));
            out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        }
    }
    return out;
}

std::string describe_char(char32_t c) {
    switch (c) {
        case U'\n':
            return "'\\n'";
        case U'\t':
            return "'\\t'";
        case U'\r':
            return "'\\r'";
        default:
            break;
    }
    if (c < 0x20 || c == 0x7F || (c >= 0x80 && c < 0xA0) || c > 0x10FFFF)
        return fmt::format("U+{:04X}", static_cast<std::uint32_t>(c));
    return fmt::format("'{}' (U+{:04X})", encode_utf8(std::u32string(1, c)), static_cast<std::uint32_t>(c));
}

}  // namespace data
