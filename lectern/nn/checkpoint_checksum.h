#pragma once
// The checkpoint file's checksum (checkpoint.h), computed by the writer
// (checkpoint_save.cpp) and checked by the reader (checkpoint_load.cpp). A header
// of its own, apart from checkpoint_format.h's constants, since it needs zlib, which
// the WebAssembly build has not (lectern/nn/meson.build).
#include <zlib.h>

#include <cstdint>
#include <string>

namespace nn::checkpoint_format {

// The checksum of bytes[from, to): zlib's CRC-32. crc32_z takes a size_t length;
// zlib's crc32 takes 32 bits and would check only part of a file over 4 GiB.
inline std::uint32_t crc_of(const std::string& bytes, std::size_t from, std::size_t to) {
    return static_cast<std::uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data() + from), to - from));
}

}  // namespace nn::checkpoint_format
