#pragma once
// A phase of a program, timed: "trained in 1:23", "test verses translated in 12.3 s".
#include <chrono>
#include <functional>

#include "lectern/run/shell/console.h"
#include "lectern/run/shell/progress_bar.h"

namespace run {

// Runs `phase` and says how long it took; returns the seconds.
inline double timed(const char* what, const std::function<void()>& phase) {
    auto start = std::chrono::steady_clock::now();
    phase();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    say("{} in {}\n", what, ProgressBar::clock(seconds));
    return seconds;
}

}  // namespace run
