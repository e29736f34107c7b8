#include "lectern/data/token_ids.h"

#include <cstring>

namespace data {

TokenIds::TokenIds(std::int64_t alphabet_size) : width_(alphabet_size <= 256 ? 1 : alphabet_size <= 65536 ? 2 : 4) {}

void TokenIds::push_back(std::int64_t id) {
    const auto v = static_cast<std::uint32_t>(id);
    const auto* p = reinterpret_cast<const unsigned char*>(&v);  // little-endian: the low bytes first
    bytes_.insert(bytes_.end(), p, p + width_);
}

std::int64_t TokenIds::operator[](std::size_t i) const {
    const unsigned char* p = bytes_.data() + i * width_;
    if (width_ == 1) return p[0];
    if (width_ == 2) return p[0] | p[1] << 8;
    std::uint32_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

}  // namespace data
