#pragma once
// A run that is asked to stop (Ctrl-C: SIGINT, `kill`: SIGTERM, a reader that
// went away: SIGPIPE) stops at the next step boundary, saves a checkpoint it
// can be resumed from, and exits with 128 + the signal's number, as a shell
// reports a killed program. The handlers only set a flag; the training loop
// asks stop_signal() after each step. A second Ctrl-C kills at once (the
// handler is one-shot); the save is atomic, so even that loses nothing older.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace run {

// Installs the handlers; SIGPIPE is then no longer fatal, and console output
// goes through print_line, which drops what a closed pipe cannot take.
void install_stop_handlers();

// The signal that asked the run to stop, or 0.
int stop_signal();

// Thrown by a training loop after it saved on a stop signal; run_program turns
// it into the exit status 128 + signal.
struct Interrupted : std::runtime_error {
    int signal;
    Interrupted(int sig, const std::string& what) : std::runtime_error(what), signal(sig) {}
};

// "SIGINT", "SIGTERM", "SIGPIPE".
std::string signal_name(int sig);

// What a training loop noted at its last step boundary: the step, of how
// many, and the checkpoint written there ("" if none).
void note_boundary(std::int64_t step, std::int64_t steps, const std::string& written);

// The one line a stopped program ends with: "stopped by SIGTERM at step 10 of
// 16; m.ckpt written (--resume m.ckpt continues)", or what it saved otherwise.
std::string stop_message(int sig);

}  // namespace run
