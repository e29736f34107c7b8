#pragma once
// The checkpoint file's constants, shared by the writer (checkpoint_save.cpp), the
// readers (checkpoint_load.cpp, checkpoint_migration.cpp) and safetensors.cpp, which
// names a checkpoint given in a safetensors file's place. The format is
// described in checkpoint.h.
#include <bit>
#include <cstdint>

#include "lectern/autograd/autograd.h"

namespace nn::checkpoint_format {

static_assert(std::endian::native == std::endian::little, "the checkpoint format is little-endian");

inline constexpr char kMagic[8] = {'L', 'E', 'C', 'T', 'E', 'R', 'N', '\0'};
// The version this build writes; checkpoint_migration.h reads the older ones.
inline constexpr std::uint32_t kVersion = 6;
enum Kind : std::uint8_t { kParameter = 0, kOptimizerState = 1, kRunRecord = 2, kBuffer = 3 };
inline constexpr std::uint8_t kTextCode = 3;

inline std::uint8_t dtype_code(autograd::Dtype d) {
    return d == autograd::Dtype::float32 ? 0 : d == autograd::Dtype::float64 ? 1 : 2;
}

}  // namespace nn::checkpoint_format
