#pragma once
// Every program's main, written once. A program is its flags, its own checks
// and its work, top to bottom (nanoGPT's train.py, with the shell taken out):
//
//   int main(int argc, char** argv) {
//       Options o;
//       return run::main(argc, argv, {
//           .name = "copy_task",
//           .about = "Train a Transformer on the copy task, then decode held-out sequences.",
//           .saves = "the model, Adam's state, the generators, the loss curve",
//           .presets = {.names = {"default", "annotated"}, .help = "...",
//                       .apply = [&](const std::string& p) { apply_preset(o, p); }},
//           .seed = &o.seed,
//           .flags = [&](run::Flags& f) { add_flags(f, o); },
//           .check = [&](run::Run& r) { check_flags(r, o); },
//           .work = [&](run::Run& r) { return work(r, o); },
//       });
//   }
//
// run::main, in this order: joins the MPI job (rank 0 alone speaks); reads the
// checkpoint --resume or --load names, once (its bytes checked whole); applies
// the preset the command line names, else the checkpoint's, else the first;
// declares the program's flags, then the common ones (--preset, the
// checkpoint's, the machine's, --detect-anomaly); parses them, adopts the flags
// the checkpoint records (or refuses those given otherwise) and runs `check`.
// A bad flag or a bad combination ends the program there, before any work, in
// one line "<program>: <reason> (see --help)" with status 2. Then the machine
// flags take effect, dropout is seeded from the run's seed (one stream a rank)
// and `work` runs, under anomaly mode with --detect-anomaly: an error ends it in
// one line with status 1, a stop signal with 128 + the signal's number
// (run_program.h).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "lectern/distributed/communicator.h"
#include "lectern/nn/checkpoint.h"
#include "lectern/run/flags/checkpoint_flags.h"
#include "lectern/run/flags/flag_groups.h"
#include "lectern/run/flags/machine_flags.h"

namespace run {

// Named sets of defaults (presets.h): the first name is the default.
struct Presets {
    std::vector<std::string> names;
    std::string help;
    std::function<void(const std::string&)> apply;  // sets the defaults of the preset named
};

class Run;

struct Program {
    std::string name{};                   // its errors' prefix, and the program its checkpoints belong to
    std::string about{};                  // --help's first line
    std::string saves{};                  // what --save's checkpoint holds, for --help
    Presets presets{};                    // none: no --preset
    const std::uint64_t* seed = nullptr;  // the run's --seed, which seeds dropout too
    std::function<void(Flags&)> flags{};
    // The checkpoint flags, where they are not run::add_checkpoint_flags': a
    // program whose output is not its checkpoint (gpt2 writes safetensors, its
    // resume state beside them) declares them itself, in `group`.
    std::function<void(FlagGroup& group, CheckpointFlags&)> checkpoint_flags{};
    // CLI::ValidationError for flags that do not fit together, the outputs and the memory.
    std::function<void(Run&)> check{};
    std::function<int(Run&)> work{};
};

// One run of a program: its flags as parsed (and adopted), the checkpoint it
// was given, and what every program does around its training.
class Run {
public:
    Run(const Program& program, CLI::App& app, Flags& flags) : program_(program), app_(app), flags_(flags) {}

    CheckpointFlags checkpoint;  // --save, --save-every, --load, --resume
    MachineFlags machine;        // --threads, --blas-core
    bool detect_anomaly = false;

    const std::string& name() const { return program_.name; }
    const std::string& preset() const { return preset_; }
    bool training() const { return checkpoint.load.empty(); }
    const distributed::Communicator& comm() const { return distributed::Communicator::world(); }
    bool is_root() const { return comm().is_root(); }

    // The run record of the checkpoint --resume or --load names (empty without either).
    const nn::RunRecord& saved() const;
    // The record this run's checkpoints hold: the program and every recorded flag's value.
    nn::RunRecord record() const;

    // The program's header line, then " | " and the machine it runs on, then the
    // flags the checkpoint supplied.
    void announce(const std::string& line) const;
    // Trains, timed ("trained in 12.3 s"), and returns the seconds; or, with
    // --load, loads the model, writes it again to --save with `record` (by
    // default record()) and returns 0.
    double train_or_load(nn::Module& model, const std::function<void()>& train);
    double train_or_load(nn::Module& model, const std::function<void()>& train, const nn::RunRecord& record);
    // The opened checkpoint, handed to the one that loads from it (the training
    // loop, the model's load); its bytes are freed with the last holder.
    std::shared_ptr<const nn::CheckpointFile> take_checkpoint();

private:
    friend int main(int argc, char** argv, const Program& program);
    void open_checkpoint(const std::string& flag, const std::string& path);

    const Program& program_;
    CLI::App& app_;
    Flags& flags_;
    std::string preset_;
    std::shared_ptr<const nn::CheckpointFile> file_;
    nn::RunRecord saved_;
    std::vector<std::string> adopted_;
};

int main(int argc, char** argv, const Program& program);

}  // namespace run
