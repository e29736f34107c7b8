#pragma once
// What every training program does around its training: time it, or load the
// model --load names instead (and write it again to --save, with the flags it
// was built from), and say which flags a checkpoint supplied.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "lectern/run/checkpoint_flags.h"
#include "lectern/run/console.h"
#include "lectern/run/output_files.h"
#include "lectern/run/progress_bar.h"
#include "lectern/nn/checkpoint.h"

namespace run {

// Runs `train` and says how long it took; returns the seconds.
inline double timed(const char* what, const std::function<void()>& train) {
    auto start = std::chrono::steady_clock::now();
    train();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    say("{} in {}\n", what, ProgressBar::clock(seconds));
    return seconds;
}

inline void load_model(nn::Module& model, const CheckpointFlags& flags, const nn::RunRecord& record) {
    nn::load_checkpoint(flags.load, model);
    say("loaded {}\n", flags.load);
    if (flags.save.empty()) return;
    require_not_an_input(flags.save);
    nn::save_checkpoint(flags.save, model, nullptr, &record);
    say("checkpoint written to {}\n", flags.save);
}

inline void say_adopted(const CheckpointFlags& flags, const std::vector<std::string>& adopted) {
    if (adopted.empty()) return;
    std::string list;
    for (const std::string& a : adopted) list += (list.empty() ? "" : ", ") + a;
    say("from {}: {}\n", flags.resume.empty() ? flags.load : flags.resume, list);
}

}  // namespace run
