#include "lectern/run/shell/program.h"

#include <cstdio>

#include "lectern/run/shell/console.h"
#include "lectern/run/shell/data_parallel_run.h"
#include "lectern/run/flags/flags.h"
#include "lectern/run/shell/output_files.h"
#include "lectern/run/shell/timed.h"
#include "lectern/run/flags/presets.h"
#include "lectern/run/flags/recorded_flags.h"
#include "lectern/run/shell/run_program.h"

namespace run {

const nn::RunRecord& Run::saved() const { return saved_; }

nn::RunRecord Run::record() const {
    nn::RunRecord r;
    record_flags(app_, program_.name, flags_.recorded(), r);
    return r;
}

void Run::announce(const std::string& line) const {
    say("{} | {}\n", line, machine_summary(machine));
    if (adopted_.empty()) return;
    std::string list;
    for (const std::string& a : adopted_) list += (list.empty() ? "" : ", ") + a;
    say("from {}: {}\n", checkpoint.resume.empty() ? checkpoint.load : checkpoint.resume, list);
}

double Run::train_or_load(nn::Module& model, const std::function<void()>& train) {
    return train_or_load(model, train, record());
}

double Run::train_or_load(nn::Module& model, const std::function<void()>& train, const nn::RunRecord& record) {
    if (training()) return timed("trained", train);
    take_checkpoint()->load(model);
    say("loaded {}\n", checkpoint.load);
    if (checkpoint.save.empty() || !is_root()) return 0;  // rank 0 writes
    require_not_an_input(checkpoint.save);
    nn::save_checkpoint(checkpoint.save, model, nullptr, &record);
    say("checkpoint written to {}\n", checkpoint.save);
    return 0;
}

std::shared_ptr<const nn::CheckpointFile> Run::take_checkpoint() { return std::move(file_); }

void Run::open_checkpoint(const std::string& flag, const std::string& path) {
    if (file_ && file_->path() == path) return;
    file_ = std::make_shared<const nn::CheckpointFile>(run::open_checkpoint(flag, path));
    saved_ = file_->run_record();
}

namespace {

void set_group(CLI::App& app, const std::vector<std::string>& names, const std::string& heading) {
    for (const std::string& name : names) app.get_option(name)->group(heading);
}

}  // namespace

int main(int argc, char** argv, const Program& program) {
    join_job();  // under mpirun: one rank of a data-parallel job
    // A line reaches a log as soon as it is printed, so a run killed with its
    // output redirected leaves the log of what it did.
    std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
    CLI::App app{program.about};
    app.option_defaults()->always_capture_default();  // the values a checkpoint records
    Flags flags(app);
    Run run(program, app, flags);

    const std::vector<std::string>& presets = program.presets.names;
    const EarlyFlags early = early_flags(argc, argv, presets);
    if (!presets.empty()) {
        // The checkpoint is read before the flags are declared: its preset sets
        // their defaults. One that cannot be read is left for the checkpoint
        // flags' check, which names the file and what is wrong with it.
        if (!early.checkpoint.empty()) {
            try {
                run.open_checkpoint(early.checkpoint_flag, early.checkpoint);
            } catch (const CLI::ValidationError&) {
            }
        }
        run.preset_ = chosen_preset(early, run.saved_, presets.front());
        program.presets.apply(run.preset_);  // the preset sets defaults, flags override them
    }

    program.flags(flags);
    if (!presets.empty()) {
        FlagGroup preset = flags.group("Run", Recorded::run);
        add_preset_flags(preset, run.preset_, presets, program.presets.help);
    }
    FlagGroup checkpoints = flags.group("Checkpoints", Recorded::none);
    if (program.checkpoint_flags) program.checkpoint_flags(checkpoints, run.checkpoint);
    else add_checkpoint_flags(checkpoints, run.checkpoint, program.saves);
    add_machine_flags(app, run.machine);
    app.add_flag("--detect-anomaly", run.detect_anomaly,
                 "check every op's output and gradient, and name the first op that makes a NaN or an infinity (slow)");
    set_group(app, {"--threads", "--blas-core", "--detect-anomaly"}, "Machine");

    const int status = parse_flags(app, argc, argv, program.name.c_str(), [&] {
        // The checks read files (a checkpoint, a tokenizer) and take output
        // locks; a stop meanwhile ends the run at once, its locks removed.
        install_stop_handlers();
        const NothingToSave checking(program.name, "checking its flags and inputs");
        check_checkpoint_combination(run.checkpoint);
        if (!run.checkpoint.resume.empty()) run.open_checkpoint("--resume", run.checkpoint.resume);
        else if (!run.checkpoint.load.empty()) run.open_checkpoint("--load", run.checkpoint.load);
        else run.file_.reset(), run.saved_ = {};
        run.adopted_ = check_checkpoint_flags(app, run.checkpoint, program.name, flags, run.file_.get());
        program.check(run);
    });
    if (status >= 0) return status;
    return run_program(program.name.c_str(), run.detect_anomaly, [&] {
        apply_machine_flags(run.machine, argv);
        if (program.seed) seed_dropout(*program.seed, run.comm());
        return program.work(run);
    });
}

}  // namespace run
