#pragma once
// The checkpoint flags every training program shares:
//   --save FILE        write the checkpoint here (after training, at each
//                      --save-every, and when the run is stopped by a signal)
//   --save-every N|Nm  also every N steps or every N minutes
//   --load FILE        evaluate a saved model without training
//   --resume FILE      continue a saved run where it stopped (--save defaults to
//                      FILE; the original command with --resume FILE appended
//                      works, its --save naming FILE)
// and what they need checked before any work: --load and --resume exclude each
// other; the file exists and is a sound checkpoint of this program; the flags
// it records are adopted or, given with other values, refused
// (recorded_flags.h); a resumed file holds training state.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "lectern/nn/checkpoint.h"
#include "lectern/run/flags/flag_groups.h"

namespace run {

struct CheckpointFlags {
    std::string save, save_every, load, resume;
};

void add_checkpoint_flags(FlagGroup& group, CheckpointFlags& flags, const std::string& what_save_holds);

// CLI::ValidationError for checkpoint flags that do not go together: --load
// with --resume, --save-every with nowhere to save.
void check_checkpoint_combination(const CheckpointFlags& flags);

// The checkpoint --resume or --load names, read and checked once; CLI::ValidationError
// naming the flag, with the loader's one-line reason.
nn::CheckpointFile open_checkpoint(const std::string& flag, const std::string& path);

// Checks the checkpoint flags at flag time (CLI::ValidationError on any
// problem), the checkpoint already opened (`file`: null without --load or
// --resume): the file is a checkpoint of this program, resumed it holds
// training state; the flags it records (those `declared` says a checkpoint
// records) are adopted into `app`, or refused given otherwise
// (recorded_flags.h); the checkpoint read is registered as an input.
// Returns the adopted flags ("--heads 4").
std::vector<std::string> check_checkpoint_flags(CLI::App& app, CheckpointFlags& flags, const std::string& program,
                                                const Flags& declared, const nn::CheckpointFile* file);

}  // namespace run
