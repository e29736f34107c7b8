#include "lectern/run/shell/streamed_text.h"

#include <cstdio>

#include <fmt/format.h>

#include "lectern/run/shell/console.h"

namespace run {

std::size_t StreamedText::complete_prefix(std::string_view bytes) {
    // The last byte that is not a continuation byte (10xxxxxx), among the last four.
    std::size_t lead = bytes.size();
    for (std::size_t back = 1; back <= 4 && back <= bytes.size(); ++back)
        if ((static_cast<unsigned char>(bytes[bytes.size() - back]) & 0xC0) != 0x80) {
            lead = bytes.size() - back;
            break;
        }
    if (lead == bytes.size()) return bytes.size();  // continuation bytes alone: no character to wait for
    const auto b = static_cast<unsigned char>(bytes[lead]);
    const std::size_t length = (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 1;
    return lead + length > bytes.size() ? lead : bytes.size();
}

std::string StreamedText::terminal_safe(std::string_view bytes) {
    std::string out;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const auto b = static_cast<unsigned char>(bytes[i]);
        const bool c1 = b == 0xC2 && i + 1 < bytes.size() && static_cast<unsigned char>(bytes[i + 1]) >= 0x80 &&
                        static_cast<unsigned char>(bytes[i + 1]) <= 0x9F;
        if ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7F) {
            out += fmt::format("\\x{:02X}", b);
        } else if (c1) {
            out += fmt::format("\\xC2\\x{:02X}", static_cast<unsigned char>(bytes[++i]));
        } else {
            out += bytes[i];
        }
    }
    return out;
}

void StreamedText::add(std::string_view bytes) {
    held_ += bytes;
    const std::size_t n = complete_prefix(held_);
    if (n == 0) return;
    say("{}", terminal_safe(std::string_view(held_).substr(0, n)));
    std::fflush(stdout);
    held_.erase(0, n);
}

void StreamedText::finish() {
    say("{}", terminal_safe(held_));
    std::fflush(stdout);
    held_.clear();
}

}  // namespace run
