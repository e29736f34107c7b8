#include "lectern/run/streamed_text.h"

#include <cstdio>

#include "lectern/run/console.h"

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

void StreamedText::add(std::string_view bytes) {
    held_ += bytes;
    const std::size_t n = complete_prefix(held_);
    if (n == 0) return;
    say("{}", std::string_view(held_).substr(0, n));
    std::fflush(stdout);
    held_.erase(0, n);
}

void StreamedText::finish() {
    say("{}", held_);
    std::fflush(stdout);
    held_.clear();
}

}  // namespace run
