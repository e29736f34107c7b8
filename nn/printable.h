#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace nn {

// Bytes read from a file (a tensor's name, a JSON key, a parser's message
// quoting the file), safe to put in a one-line message: bytes outside printable
// ASCII (and the backslash) as \xNN, since a NUL would cut the message short and
// an escape sequence would reach the terminal; at most `max` bytes shown.
std::string printable(std::string_view s, std::size_t max = 64);

}  // namespace nn
