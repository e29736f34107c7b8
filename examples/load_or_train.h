#pragma once
// What every training program does with --load and --save: load the model from
// a checkpoint, or train it (timing the run); then save it if asked.
#include <chrono>
#include <functional>
#include <string>

#include <fmt/format.h>

#include "examples/progress_bar.h"
#include "nn/checkpoint.h"

namespace examples {

// Returns the training time in seconds (0 when loaded).
inline double load_or_train(nn::Module& model, const std::string& load, const std::function<void()>& train) {
    if (!load.empty()) {
        nn::load_checkpoint(load, model);
        fmt::print("loaded {}\n", load);
        return 0;
    }
    auto start = std::chrono::steady_clock::now();
    train();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print("trained in {}\n", ProgressBar::clock(seconds));
    return seconds;
}

inline void save_if_asked(const nn::Module& model, const std::string& save) {
    if (save.empty()) return;
    nn::save_checkpoint(save, model);
    fmt::print("checkpoint written to {}\n", save);
}

}  // namespace examples
