#include "lectern/data/repair_utf8.h"

#include "lectern/data/idx.h"  // DatasetError
#include "lectern/data/utf8.h"

namespace data {

namespace {

// The length of the character a lead byte starts, or 0 for a byte no character starts with.
std::size_t sequence_length(unsigned char b) {
    return b < 0x80 ? 1 : (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 0;
}

}  // namespace

std::string repair_utf8(const std::string& bytes, const std::function<std::string(unsigned char)>& replacement) {
    std::string out;
    for (std::size_t i = 0; i < bytes.size();) {
        const auto b = static_cast<unsigned char>(bytes[i]);
        const std::size_t n = sequence_length(b);
        bool ok = n > 0 && i + n <= bytes.size();
        if (ok) try {
                decode_utf8(bytes.substr(i, n));  // continuation bytes, no overlong form, no surrogate
            } catch (const DatasetError&) {
                ok = false;
            }
        if (ok) {
            out += bytes.substr(i, n);
            i += n;
        } else {
            out += replacement(b);
            ++i;
        }
    }
    return out;
}

}  // namespace data
