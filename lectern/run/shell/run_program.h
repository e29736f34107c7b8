#pragma once
// The part of every training program's main after its flags are parsed: the
// work runs (under anomaly mode if asked), and any error ends it with one line
// on stderr and exit status 1; a checkpoint whose tensors do not fit the model
// exits 2, as does every other file a flag names and the program refuses. A
// loss or gradient that stopped being finite says that nothing was saved, and
// what to try; a run stopped by a signal has saved what it could
// (interruption.h) and exits with 128 + the signal.
#include <functional>
#include <new>
#include <optional>

#include <fmt/format.h>

#include "lectern/autograd/autograd.h"
#include "lectern/run/shell/console.h"
#include "lectern/run/shell/interruption.h"
#include "lectern/run/shell/job_agreement.h"
#include "lectern/nn/checkpoint.h"
#include "lectern/nn/non_finite.h"

namespace run {

inline int run_program(const char* program, bool detect_anomaly, const std::function<int()>& work) {
    try {
        install_stop_handlers();
        std::optional<autograd::AnomalyGuard> anomaly;
        if (detect_anomaly) anomaly.emplace();
        const int status = work();
        // A signal in a phase that does not stop on it (decoding, sampling)
        // still ends the program with its status.
        if (const int sig = stop_signal()) throw Interrupted(sig, stop_message(sig));
        return status;
    } catch (const Interrupted& e) {
        if (!console_quiet()) fmt::print(stderr, "{}: {}\n", program, e.what());  // every rank stopped at one step
        return 128 + e.signal;
    } catch (const JobMismatch& e) {
        if (!console_quiet()) fmt::print(stderr, "{}: {}\n", program, e.what());  // every rank found it
        return 1;
    } catch (const nn::CheckpointMismatch& e) {
        // A file named by --load or --resume, refused as it met the model: the status of a refused flag.
        fmt::print(stderr, "{}: {}\n", program, e.what());
        return 2;
    } catch (const nn::NonFiniteError& e) {
        fmt::print(stderr,
                   "{}: {}: training stopped, nothing saved (try a lower --lr; --detect-anomaly names the op)\n",
                   program, e.what());
        return 1;
    } catch (const std::bad_alloc& e) {
        const bool tensor = dynamic_cast<const autograd::OutOfMemory*>(&e) != nullptr;
        fmt::print(stderr, "{}: {} (try a smaller --batch or model)\n", program, tensor ? e.what() : "out of memory");
        return 1;
    } catch (const std::exception& e) {
        fmt::print(stderr, "{}: {}{}\n", program, console_quiet() ? "a rank other than 0: " : "", e.what());
        return 1;
    }
}

}  // namespace run
