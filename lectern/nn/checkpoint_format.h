#pragma once
// The checkpoint file's constants, shared by the writer (checkpoint_save.cpp)
// and the reader (checkpoint_load.cpp, checkpoint_migration.cpp). The format is
// described in checkpoint.h.
#include <array>
#include <bit>
#include <cstdint>
#include <string>

#include "lectern/autograd/autograd.h"

namespace nn::checkpoint_format {

static_assert(std::endian::native == std::endian::little, "the checkpoint format is little-endian");

inline constexpr char kMagic[8] = {'L', 'E', 'C', 'T', 'E', 'R', 'N', '\0'};
// The version this build writes; checkpoint_migration.h reads the older ones.
inline constexpr std::uint32_t kVersion = 5;
enum Kind : std::uint8_t { kParameter = 0, kOptimizerState = 1, kRunRecord = 2 };
inline constexpr std::uint8_t kTextCode = 3;

inline std::uint8_t dtype_code(autograd::Dtype d) {
    return d == autograd::Dtype::float32 ? 0 : d == autograd::Dtype::float64 ? 1 : 2;
}

// CRC-32 as zlib, PNG and gzip compute it (the reflected polynomial 0xEDB88320, all
// ones in and out), a byte a step through a table of the 256 bytes' remainders.
// Computed here rather than by zlib so that the core needs no zlib: the WebAssembly
// build has none (docs/web.md). Checkpoints written with zlib's crc32_z read the same.
inline constexpr std::array<std::uint32_t, 256> kCrcTable = [] {
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t byte = 0; byte < 256; ++byte) {
        std::uint32_t r = byte;
        for (int bit = 0; bit < 8; ++bit) r = (r & 1) ? (r >> 1) ^ 0xEDB88320u : r >> 1;
        table[byte] = r;
    }
    return table;
}();

inline std::uint32_t crc_of(const std::string& bytes, std::size_t from, std::size_t to) {
    std::uint32_t crc = 0xFFFFFFFFu;
    for (std::size_t i = from; i < to; ++i)
        crc = kCrcTable[(crc ^ static_cast<unsigned char>(bytes[i])) & 0xFFu] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

}  // namespace nn::checkpoint_format
