#include "lectern/run/shell/interruption.h"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <iterator>

#include <fmt/format.h>

namespace run {

namespace {

volatile std::sig_atomic_t g_stop = 0;
volatile std::sig_atomic_t g_saving = 0;
volatile std::sig_atomic_t g_nothing_to_save = 0;

// What the handler reads: fixed buffers, written before a signal can need them
// (the notes at a loop's start, the lock files at flag time).
struct Note {
    char text[1024] = {};
    volatile std::sig_atomic_t size = 0;
};
Note g_first_note, g_saving_note;
Note g_ended_before, g_ended_after;  // "<program>: stopped by " and " while <what>\n"
char g_kill_files[8][4096] = {};
volatile std::sig_atomic_t g_kill_file_count = 0;

void set_note(Note& note, const std::string& text) {
    note.size = 0;  // a signal meanwhile prints nothing rather than half a line
    const std::size_t n = std::min(text.size(), sizeof note.text);
    std::memcpy(note.text, text.data(), n);
    note.size = static_cast<std::sig_atomic_t>(n);
}

void print_note(const Note& note, int fd = STDOUT_FILENO) {
    if (note.size == 0) return;
    [[maybe_unused]] const ssize_t written =
        ::write(fd, note.text, static_cast<std::size_t>(note.size));  // what fd takes, or nothing
}

// The signals' names as string literals, for a handler to write.
const char* signal_literal(int sig) {
    switch (sig) {
        case SIGINT:
            return "SIGINT";
        case SIGTERM:
            return "SIGTERM";
        case SIGPIPE:
            return "SIGPIPE";
        default:
            return nullptr;
    }
}

// Ends the process as killed by `sig`: the lock files go first.
void end_as_killed(int sig) {
    for (std::sig_atomic_t i = 0; i < g_kill_file_count; ++i) ::unlink(g_kill_files[i]);
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

void end_with_nothing_saved(int sig) {
    print_note(g_ended_before, STDERR_FILENO);
    const char* name = signal_literal(sig);
    if (name == nullptr) name = "a signal";
    [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, name, std::strlen(name));
    print_note(g_ended_after, STDERR_FILENO);
    end_as_killed(sig);
}

struct Boundary {
    std::int64_t step = -1, steps = 0;
    std::string written;
};
Boundary& last_boundary() {
    static Boundary b;
    return b;
}

extern "C" void on_stop_signal(int sig) {
    if (g_nothing_to_save) {
        end_with_nothing_saved(sig);  // the signal, blocked in its handler, ends the run as this returns
        return;
    }
    if (g_stop == 0) {
        g_stop = sig;
        print_note(g_first_note);
        return;
    }
    if (sig == SIGPIPE) return;  // each write to a closed reader raises it again
    if (g_saving) {
        print_note(g_saving_note);
        return;
    }
    end_as_killed(sig);  // a second Ctrl-C before the save began
}

}  // namespace

void install_stop_handlers() {
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGPIPE}) sigaction(sig, &sa, nullptr);
}

int stop_signal() { return g_stop; }

void set_stop_note(const std::string& first, const std::string& while_saving) {
    set_note(g_first_note, first);
    set_note(g_saving_note, while_saving);
}

SavingCheckpoint::SavingCheckpoint() { g_saving = 1; }
SavingCheckpoint::~SavingCheckpoint() { g_saving = 0; }

NothingToSave::NothingToSave(const std::string& program, const std::string& what) {
    set_note(g_ended_before, program + ": stopped by ");
    set_note(g_ended_after, " while " + what + "\n");
    g_nothing_to_save = 1;
    if (const int sig = g_stop) end_with_nothing_saved(sig);
}
NothingToSave::~NothingToSave() { g_nothing_to_save = 0; }

void remove_if_killed(const std::string& path) {
    if (static_cast<std::size_t>(g_kill_file_count) == std::size(g_kill_files) || path.size() >= sizeof g_kill_files[0])
        throw std::logic_error(fmt::format("remove_if_killed: no room for {}", path));
    std::memcpy(g_kill_files[g_kill_file_count], path.c_str(), path.size() + 1);
    g_kill_file_count = g_kill_file_count + 1;
}

std::string signal_name(int sig) {
    const char* name = signal_literal(sig);
    return name != nullptr ? name : fmt::format("signal {}", sig);
}

void note_boundary(std::int64_t step, std::int64_t steps, const std::string& written) {
    last_boundary() = {step, steps, written};
}

std::string stop_message(int sig) {
    const Boundary& b = last_boundary();
    if (b.step < 0) return fmt::format("stopped by {}", signal_name(sig));
    if (!b.written.empty())
        return fmt::format("stopped by {} at step {} of {}; {} written (--resume {} continues)", signal_name(sig),
                           b.step, b.steps, b.written, b.written);
    if (b.step < b.steps)
        return fmt::format("stopped by {} at step {} of {}; nothing saved (--save FILE keeps a run)", signal_name(sig),
                           b.step, b.steps);
    return fmt::format("stopped by {} after the last step, {} of {}; what it wrote stays", signal_name(sig), b.step,
                       b.steps);
}

}  // namespace run
