#include "lectern/run/flags/checkpoint_flags.h"

#include <fmt/format.h>

#include "lectern/run/flags/flags.h"
#include "lectern/run/shell/output_files.h"
#include "lectern/run/flags/recorded_flags.h"
#include "lectern/run/training/run_state.h"

namespace run {

void add_checkpoint_flags(FlagGroup& group, CheckpointFlags& flags, const std::string& what_save_holds) {
    group
        .add("--save", flags.save,
             fmt::format("write a checkpoint here ({}) after training, at each --save-every, and when stopped by "
                         "Ctrl-C or SIGTERM",
                         what_save_holds))
        ->check(path_value());
    group.add("--save-every", flags.save_every, "also save every N steps, or every N minutes with Nm (e.g. 500, 10m)")
        ->check(save_every_value());
    group.add("--load", flags.load, "evaluate this checkpoint without training (its model flags are adopted)")
        ->check(path_value());
    group
        .add("--resume", flags.resume,
             "continue the run saved in this checkpoint, to the same result as a run never stopped (its flags are "
             "adopted; --save defaults to it)")
        ->check(path_value());
}

nn::CheckpointFile open_checkpoint(const std::string& flag, const std::string& path) {
    try {
        return nn::CheckpointFile(path);
    } catch (const nn::CheckpointError& e) {
        throw CLI::ValidationError(flag, e.what());
    }
}

void check_checkpoint_combination(const CheckpointFlags& flags) {
    if (!flags.load.empty() && !flags.resume.empty())
        throw CLI::ValidationError("--resume", "and --load exclude each other: --load evaluates, --resume trains on");
    if (!flags.save_every.empty() && flags.save.empty() && flags.resume.empty())
        throw CLI::ValidationError("--save-every", "needs --save FILE to say where");
}

std::vector<std::string> check_checkpoint_flags(CLI::App& app, CheckpointFlags& flags, const std::string& program,
                                                const Flags& declared, const nn::CheckpointFile* file) {
    check_checkpoint_combination(flags);
    if (!flags.resume.empty()) {
        const nn::RunRecord& record = file->run_record();
        try {
            saved_step(record, flags.resume);
        } catch (const std::runtime_error& e) {
            throw CLI::ValidationError("--resume", e.what());
        }
        std::vector<std::string> adopted =
            adopt_flags(app, record, program, declared.recorded(), "--resume", flags.resume);
        if (flags.save.empty()) flags.save = flags.resume;  // the run's checkpoint, carried on
        else if (!same_file(flags.save, flags.resume)) register_input(flags.resume);
        return adopted;
    }
    if (!flags.load.empty()) {
        for (const DeclaredFlag& f : declared.recorded(Recorded::training))
            if (app.get_option(f.name)->count() > 0)
                throw CLI::ValidationError(f.name,
                                           "does nothing with --load, which evaluates the saved model (--resume "
                                           "FILE continues its training)");
        std::vector<std::string> adopted =
            adopt_flags(app, file->run_record(), program, declared.recorded(Recorded::model), "--load", flags.load);
        register_input(flags.load);
        return adopted;
    }
    return {};
}

}  // namespace run
