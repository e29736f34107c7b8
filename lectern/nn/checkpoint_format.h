#pragma once
// The checkpoint file's constants, shared by the writer (checkpoint_save.cpp)
// and the reader (checkpoint_load.cpp, checkpoint_migration.cpp). The format is
// described in checkpoint.h.
#include <zlib.h>

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

// The checksum of bytes[from, to): zlib's CRC-32. crc32_z takes a size_t length;
// zlib's crc32 takes 32 bits and would check only part of a file over 4 GiB.
inline std::uint32_t crc_of(const std::string& bytes, std::size_t from, std::size_t to) {
    return static_cast<std::uint32_t>(
        crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data() + from), to - from));
}

}  // namespace nn::checkpoint_format
