#pragma once
// A run that is asked to stop (Ctrl-C: SIGINT, `kill`: SIGTERM, a reader that
// went away: SIGPIPE) stops at the next step boundary, saves a checkpoint it
// can be resumed from, and exits with 128 + the signal's number, as a shell
// reports a killed program. The handlers set a flag, and print at once what
// the stop will do (set_stop_note); the training loop asks stop_signal() after
// each step. A second SIGINT or SIGTERM while that checkpoint is being written
// is noted and the save finishes; one before the save began ends the run at
// once: the previous checkpoint stays whole (saves are atomic) and the run's
// lock files are removed (remove_if_killed), so nothing is left half done.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace run {

// Installs the handlers; SIGPIPE is then no longer fatal, and console output
// goes through print_line, which drops what a closed pipe cannot take.
void install_stop_handlers();

// The signal that asked the run to stop, or 0.
int stop_signal();

// The line the handler prints on stdout at the first stop signal ("stopping:
// saving m.ckpt at the end of this step ..."), and the one it prints at a
// further signal during that save; "" prints nothing. Each at most 1 KiB.
void set_stop_note(const std::string& first, const std::string& while_saving);

// While one lives, this process is writing the checkpoint a stop saves: a
// further stop signal is noted, not fatal.
class SavingCheckpoint {
public:
    SavingCheckpoint();
    ~SavingCheckpoint();
    SavingCheckpoint(const SavingCheckpoint&) = delete;
    SavingCheckpoint& operator=(const SavingCheckpoint&) = delete;
};

// While one lives, the run holds nothing a stop would save (it is making or
// loading weights, say, for seconds or minutes): a stop signal ends it at
// once, as killed by that signal, its lock files removed, with the line
// "<program>: stopped by SIGTERM while <what>" on stderr. A signal that came
// before the scope began ends the run as it begins. Not nested.
class NothingToSave {
public:
    NothingToSave(const std::string& program, const std::string& what);
    ~NothingToSave();
    NothingToSave(const NothingToSave&) = delete;
    NothingToSave& operator=(const NothingToSave&) = delete;
};

// A file a second stop signal removes before it ends the run (output_lock.h's
// lock files); at most 8, each path under 4 KiB.
void remove_if_killed(const std::string& path);

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
