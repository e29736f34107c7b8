#include "lectern/data/unicode_space.h"

namespace data {

bool is_python_space(char32_t c) {
    return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

std::size_t python_space_at(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char b = byte(i);
    if (b < 0x80) return is_python_space(b) ? 1 : 0;
    // The non-ASCII spaces are two or three bytes long; a malformed sequence is no space.
    if ((b & 0xE0) == 0xC0 && i + 1 < text.size() && (byte(i + 1) & 0xC0) == 0x80) {
        const char32_t c = (static_cast<char32_t>(b & 0x1F) << 6) | (byte(i + 1) & 0x3F);
        return is_python_space(c) ? 2 : 0;
    }
    if ((b & 0xF0) == 0xE0 && i + 2 < text.size() && (byte(i + 1) & 0xC0) == 0x80 && (byte(i + 2) & 0xC0) == 0x80) {
        const char32_t c = (static_cast<char32_t>(b & 0x0F) << 12) | (static_cast<char32_t>(byte(i + 1) & 0x3F) << 6) |
                           (byte(i + 2) & 0x3F);
        return is_python_space(c) ? 3 : 0;
    }
    return 0;
}

std::vector<std::string> python_split(std::string_view text) {
    std::vector<std::string> words;
    std::string word;
    for (std::size_t i = 0; i < text.size();) {
        if (std::size_t n = python_space_at(text, i)) {
            if (!word.empty()) words.push_back(std::move(word));
            word.clear();
            i += n;
        } else {
            word += text[i++];
        }
    }
    if (!word.empty()) words.push_back(std::move(word));
    return words;
}

}  // namespace data
