#pragma once
// Checkpoints: a module's named parameters, optionally an optimizer's state and
// step count, and optionally a run record (what the model was built from, and
// what a resumed run needs), in one versioned, checksummed binary file.
//
// Format, version 6 (integers little-endian, as written by x86-64 and ARM):
//   magic     8 bytes   "LECTERN\0"
//   version   u32       6 (versions 1 to 5 load too: checkpoint_migration.h says
//                       how they differ and how they are read)
//   flags     u32       bit 0: the file holds optimizer state
//   step      i64       the optimizer's step count (0 without optimizer state)
//   count     u32       number of tensor records that follow
//   record    count times:
//     kind      u8      0 = parameter, 1 = optimizer state, 2 = run record,
//                       3 = saved buffer (BatchNorm1d's running_mean, running_var)
//     name_len  u32     then name_len bytes of the name
//                       (parameter: "encoder.layers.0.self_attn.w_q.weight";
//                        optimizer state: "exp_avg.3" = state "exp_avg" of parameter 3;
//                        "step.3" = int64 [1], parameter 3's update count)
//                       run record: "config.--heads", "alphabet", "generator.data", ...
//     dtype     u8      0 = float32, 1 = float64, 2 = int64, 3 = text (bytes, rank 1;
//                       run records only)
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
// Saving writes the file through nn::write_file_atomically (output_file.h): a
// failed or interrupted save leaves the previous checkpoint intact, and a path
// that is a device, a FIFO or a folder is never replaced.
#include <map>
#include <memory>
#include <string>

#include "lectern/nn/module.h"
#include "lectern/nn/optim/optimizer.h"

namespace nn {

struct CheckpointError : autograd::Error {
    using autograd::Error::Error;
};

// A whole checkpoint whose tensors are not the model's or the optimizer's: a
// parameter missing, extra or of another shape, or moments that do not fit.
struct CheckpointMismatch : CheckpointError {
    using CheckpointError::CheckpointError;
};

// What a program keeps beside the weights: text (the flags that built the model,
// char_lm's alphabet) and tensors (generator states, the data position, the loss
// curve so far), under names of its choosing. Checkpoints before version 4 have
// an empty record.
struct RunRecord {
    std::map<std::string, std::string> text;
    std::map<std::string, autograd::Tensor> tensors;
    // Read from a file of the format version this build writes, so that a
    // program can hold it to everything it records now (recorded_flags.h); an
    // older file may predate some of it. Not saved: the file's version says it.
    bool current_format = false;
    bool empty() const { return text.empty() && tensors.empty(); }
};

void save_checkpoint(const std::string& path, const Module& module, const optim::Optimizer* optimizer = nullptr,
                     const RunRecord* run = nullptr);
void load_checkpoint(const std::string& path, Module& module, optim::Optimizer* optimizer = nullptr,
                     RunRecord* run = nullptr);
// The run record alone, from a file checked as load_checkpoint checks it: what a
// program reads to build the model the file was saved from.
RunRecord read_run_record(const std::string& path);

// A checkpoint read once and checked whole (layout, sizes, checksum) when it is
// opened: its run record at hand before any model exists (to build the model the
// file was saved from), its weights and optimizer state loaded later from the
// same bytes. A program that needs both reads the file once, as load_checkpoint
// and read_run_record would read it twice. Holds the file's bytes until
// destroyed.
class CheckpointFile {
public:
    explicit CheckpointFile(const std::string& path);  // CheckpointError as load_checkpoint's
    ~CheckpointFile();
    CheckpointFile(CheckpointFile&&) noexcept;
    CheckpointFile& operator=(CheckpointFile&&) noexcept;

    const std::string& path() const;
    const RunRecord& run_record() const;
    // load_checkpoint's checks and copies, from the bytes read when opened.
    void load(Module& module, optim::Optimizer* optimizer = nullptr) const;

private:
    struct Checked;
    std::unique_ptr<Checked> file_;
};

}  // namespace nn
