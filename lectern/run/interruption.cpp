#include "lectern/run/interruption.h"

#include <csignal>

#include <fmt/format.h>

namespace run {

namespace {

volatile std::sig_atomic_t g_stop = 0;

struct Boundary {
    std::int64_t step = -1, steps = 0;
    std::string written;
};
Boundary& last_boundary() {
    static Boundary b;
    return b;
}

extern "C" void on_stop_signal(int sig) { g_stop = sig; }

}  // namespace

void install_stop_handlers() {
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;  // the second signal takes its default action
    for (int sig : {SIGINT, SIGTERM}) sigaction(sig, &sa, nullptr);
    sa.sa_flags = 0;  // every failed write raises SIGPIPE again: stay handled
    sigaction(SIGPIPE, &sa, nullptr);
}

int stop_signal() { return g_stop; }

std::string signal_name(int sig) {
    switch (sig) {
        case SIGINT: return "SIGINT";
        case SIGTERM: return "SIGTERM";
        case SIGPIPE: return "SIGPIPE";
        default: return fmt::format("signal {}", sig);
    }
}

void note_boundary(std::int64_t step, std::int64_t steps, const std::string& written) {
    last_boundary() = {step, steps, written};
}

std::string stop_message(int sig) {
    const Boundary& b = last_boundary();
    if (b.step < 0) return fmt::format("stopped by {}", signal_name(sig));
    if (!b.written.empty())
        return fmt::format("stopped by {} at step {} of {}; {} written (--resume {} continues)", signal_name(sig), b.step,
                           b.steps, b.written, b.written);
    if (b.step < b.steps)
        return fmt::format("stopped by {} at step {} of {}; nothing saved (--save FILE keeps a run)", signal_name(sig),
                           b.step, b.steps);
    return fmt::format("stopped by {} after the last step, {} of {}; what it wrote stays", signal_name(sig), b.step,
                       b.steps);
}

}  // namespace run
