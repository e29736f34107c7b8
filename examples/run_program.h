#pragma once
// The part of every training program's main after its flags are parsed: the
// work runs (under anomaly mode if asked), and any error ends it with one line
// on stderr and exit status 1. A loss or gradient that stopped being finite
// says that nothing was saved, and what to try.
#include <functional>
#include <optional>

#include <fmt/format.h>

#include "autograd/autograd.h"
#include "nn/non_finite.h"

namespace examples {

inline int run_program(const char* program, bool detect_anomaly, const std::function<int()>& work) {
    try {
        std::optional<autograd::AnomalyGuard> anomaly;
        if (detect_anomaly) anomaly.emplace();
        return work();
    } catch (const nn::NonFiniteError& e) {
        fmt::print(stderr, "{}: {}: training stopped, nothing saved (try a lower --lr; --detect-anomaly names the op)\n",
                   program, e.what());
        return 1;
    } catch (const std::exception& e) {
        fmt::print(stderr, "{}: {}\n", program, e.what());
        return 1;
    }
}

}  // namespace examples
