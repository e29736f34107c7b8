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
#include "lectern/run/flag_groups.h"

namespace run {

struct CheckpointFlags {
    std::string save, save_every, load, resume;
};

// The flags a program records in its checkpoints, by what they change:
// `model` builds the model (compared by --load and --resume), `training`
// changes only the training (compared by --resume; given with --load they
// would do nothing and are refused), `run` changes the run's numbers but may
// differ when evaluating (--seed, --threads: compared by --resume only).
// A checkpoint of the current format version must record every one of them
// (recorded_flags.h), so a flag added to a program's groups comes with a new
// format version (checkpoint_format.h), or the program refuses its older
// checkpoints as damaged.
struct FlagGroups {
    std::vector<std::string> model, training, run;
    std::vector<std::string> all() const;
};
std::vector<DeclaredFlag> declared(const std::vector<std::string>& names);

// The run record of the flags `groups` names, for the checkpoints the run writes.
nn::RunRecord recorded_flags(const CLI::App& app, const std::string& program, const FlagGroups& groups);

void add_checkpoint_flags(CLI::App& app, CheckpointFlags& flags, const std::string& what_save_holds);
void add_checkpoint_flags(FlagGroup& group, CheckpointFlags& flags, const std::string& what_save_holds);

// Checks the checkpoint flags at flag time (CLI::ValidationError on any
// problem), registers the checkpoint read as an input, adopts its recorded
// flags into `app` and returns its run record (empty without --load/--resume).
// Prints nothing: the adopted flags are returned in `adopted`.
nn::RunRecord check_checkpoint_flags(CLI::App& app, CheckpointFlags& flags, const std::string& program,
                                     const FlagGroups& groups, std::vector<std::string>& adopted);

// CLI::ValidationError for checkpoint flags that do not go together: --load
// with --resume, --save-every with nowhere to save.
void check_checkpoint_combination(const CheckpointFlags& flags);

// The checkpoint --resume or --load names, read and checked once; CLI::ValidationError
// naming the flag, with the loader's one-line reason.
nn::CheckpointFile open_checkpoint(const std::string& flag, const std::string& path);

// The checks of check_checkpoint_flags, with the checkpoint already opened
// (`file`: null without --load or --resume) and the flags that a checkpoint
// records declared in `flags`. Returns the adopted flags ("--heads 4").
std::vector<std::string> check_checkpoint_flags(CLI::App& app, CheckpointFlags& flags, const std::string& program,
                                                const Flags& declared, const nn::CheckpointFile* file);

}  // namespace run
