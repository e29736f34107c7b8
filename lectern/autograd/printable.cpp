#include "lectern/autograd/printable.h"

#include <fmt/format.h>

namespace autograd {

namespace {

// The length of the well-formed UTF-8 sequence at text[i] of a code point a
// terminal prints as it is (U+00A0 and above: no C1 control), or 0.
std::size_t printable_sequence(std::string_view text, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
    const auto cont = [&](std::size_t k) { return i + k < text.size() && (b(k) & 0xC0) == 0x80; };
    const unsigned char c = b(0);
    if (c >= 0xC2 && c <= 0xDF && cont(1)) return c == 0xC2 && b(1) < 0xA0 ? 0 : 2;
    if (c >= 0xE0 && c <= 0xEF && cont(1) && cont(2)) {
        if ((c == 0xE0 && b(1) < 0xA0) || (c == 0xED && b(1) >= 0xA0)) return 0;  // overlong, surrogate
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4 && cont(1) && cont(2) && cont(3)) {
        if ((c == 0xF0 && b(1) < 0x90) || (c == 0xF4 && b(1) >= 0x90)) return 0;  // overlong, beyond U+10FFFF
        return 4;
    }
    return 0;
}

}  // namespace

std::string printable(std::string_view text, std::size_t max) {
    const std::string_view shown = text.substr(0, max);
    std::string out;
    for (std::size_t i = 0; i < shown.size();) {
        const auto c = static_cast<unsigned char>(shown[i]);
        if (c >= 0x20 && c < 0x7F && c != '\\') {
            out += static_cast<char>(c);
            ++i;
        } else if (const std::size_t n = c >= 0x80 ? printable_sequence(shown, i) : 0; n > 0) {
            out += shown.substr(i, n);
            i += n;
        } else {
            out += fmt::format("\\x{:02x}", c);
            ++i;
        }
    }
    if (text.size() > max) out += fmt::format("... ({} bytes)", text.size());
    return out;
}

}  // namespace autograd
