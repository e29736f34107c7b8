#include "nn/printable.h"

#include <fmt/format.h>

namespace nn {

std::string printable(std::string_view s, std::size_t max) {
    std::string out;
    for (unsigned char c : s.substr(0, max)) {
        if (c < 0x20 || c > 0x7e || c == '\\')
            out += fmt::format("\\x{:02x}", c);
        else
            out += static_cast<char>(c);
    }
    if (s.size() > max) out += fmt::format("... ({} bytes)", s.size());
    return out;
}

}  // namespace nn
