#pragma once
// A text's token ids, stored in as few bytes as its alphabet allows.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace data {

// Each id in the fewest bytes its alphabet needs: one for up to 256 characters,
// two for up to 65,536, else four (a 200 MB English text takes 200 MB, not the
// 1.6 GB of int64 ids).
class TokenIds {
public:
    explicit TokenIds(std::int64_t alphabet_size);
    void reserve(std::size_t n) { bytes_.reserve(n * width_); }
    void push_back(std::int64_t id);
    std::int64_t operator[](std::size_t i) const;
    std::size_t size() const { return bytes_.size() / width_; }
    std::size_t bytes_per_id() const { return width_; }

private:
    std::size_t width_;
    std::vector<unsigned char> bytes_;
};

// Tokens [begin, end) of a TokenIds: the training or the validation part.
struct TokenSpan {
    const TokenIds* ids;
    std::size_t begin, end;
    std::int64_t size() const { return static_cast<std::int64_t>(end - begin); }
    std::int64_t operator[](std::size_t i) const { return (*ids)[begin + i]; }
};

}  // namespace data
