#pragma once
// Checkpoints: a module's named parameters, and optionally an optimizer's
// state and step count, in one versioned, checksummed binary file.
//
// Format, version 3 (integers little-endian, as written by x86-64 and ARM):
//   magic     8 bytes   "LECTERN\0"
//   version   u32       3 (versions 1 and 2 load too: see "name" and "step" below)
//   flags     u32       bit 0: the file holds optimizer state
//   step      i64       the optimizer's step count (0 without optimizer state)
//   count     u32       number of tensor records that follow
//   record    count times:
//     kind      u8      0 = parameter, 1 = optimizer state
//     name_len  u32     then name_len bytes of the name
//                       (parameter: "encoder.layers.0.self_attn.w_q.weight"; in
//                        versions 1 and 2 the ViT's "embed.position" was not yet
//                        a module: it loads as "embed.position.weight";
//                        optimizer state: "exp_avg.3" = state "exp_avg" of parameter 3;
//                        "step.3" = int64 [1], parameter 3's update count, new in
//                        version 2: a version 1 file gives every parameter with
//                        state the file's step count, as version 1 bias-corrected)
//     dtype     u8      0 = float32, 1 = float64, 2 = int64
//     ndim      u32     then ndim i64 sizes
//     data      numel * element size bytes, row-major
//   crc32     u32       zlib's CRC-32 of every byte between the magic and this field
//
// Loading checks all of it and throws CheckpointError naming what is wrong: an
// unreadable file (and its path), a wrong magic, an unsupported version, a
// truncated file, a checksum mismatch, a missing or unexpected parameter (by
// name), a shape or dtype that differs (both). Sizes from the file are
// multiplied with overflow checks and compared with the bytes actually there
// before anything is allocated, and names from the file are printed escaped
// (\xNN) and truncated. Everything is validated before anything is copied, so
// a failed load leaves the module and optimizer exactly as they were.
//
// Saving creates a new temporary file beside `path` (exclusively: an existing
// file or link of that name is never followed or overwritten), writes and
// fsyncs it, and renames it over `path`: a failed or interrupted save leaves
// the previous checkpoint intact.
#include <string>

#include "nn/module.h"
#include "nn/optim/optimizer.h"

namespace nn {

struct CheckpointError : autograd::Error {
    using autograd::Error::Error;
};

void save_checkpoint(const std::string& path, const Module& module, const optim::Optimizer* optimizer = nullptr);
void load_checkpoint(const std::string& path, Module& module, optim::Optimizer* optimizer = nullptr);

}  // namespace nn
