#include "run/interruption.h"

#include <csignal>

#include <fmt/format.h>

namespace run {

namespace {

volatile std::sig_atomic_t g_stop = 0;

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

}  // namespace run
