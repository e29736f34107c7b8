// A second Ctrl-C. It once killed the run whatever it was
// doing (the handler was one-shot): during the save a stop makes, that lost
// the checkpoint and left the run's lock file behind. Now a second signal
// during that save is noted and the save finishes; one before the save began
// ends the run at once, its lock files removed. Each case runs in a child
// process, so the test's own handlers stay as they were.
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>

#include <catch2/catch.hpp>

#include "lectern/run/shell/interruption.h"
#include "temp_files.h"

namespace {

// How a child that installs the stop handlers, registers `lock` and runs f() ends: its exit
// status, or 128 + the signal that killed it.
template <class F>
int child_status(const std::string& lock, F f) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        run::install_stop_handlers();
        run::remove_if_killed(lock);
        ::_exit(f());
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

}  // namespace

TEST_CASE("a second signal during the stop's save lets the save finish", "[run][hostile]") {
    testing::TempDir dir("hostile-signal");
    const std::string lock = dir.file("m.ckpt.lock");
    testing::write_all(lock, "1\n");
    const int status = child_status(lock, [] {
        std::raise(SIGINT);  // the first: a stop is asked for
        if (run::stop_signal() != SIGINT) return 3;
        const run::SavingCheckpoint saving;
        std::raise(SIGINT);  // the second, while the checkpoint is written: noted
        std::raise(SIGTERM);
        return run::stop_signal() == SIGINT ? 0 : 4;
    });
    CHECK(status == 0);
    CHECK(std::filesystem::exists(lock));  // the run ends as it does, and removes its own lock then
}

TEST_CASE("a second signal before the save began ends the run at once, its lock file removed", "[run][hostile]") {
    testing::TempDir dir("hostile-signal");
    const std::string lock = dir.file("m.ckpt.lock");
    testing::write_all(lock, "1\n");
    const int status = child_status(lock, [] {
        std::raise(SIGINT);
        std::raise(SIGINT);
        return 5;  // not reached
    });
    CHECK(status == 128 + SIGINT);
    CHECK_FALSE(std::filesystem::exists(lock));
}

TEST_CASE("a reader that goes away twice is no second Ctrl-C", "[run][hostile]") {
    testing::TempDir dir("hostile-signal");
    const std::string lock = dir.file("m.ckpt.lock");
    testing::write_all(lock, "1\n");
    const int status = child_status(lock, [] {
        std::raise(SIGPIPE);
        std::raise(SIGPIPE);
        return run::stop_signal() == SIGPIPE ? 0 : 6;
    });
    CHECK(status == 0);
    CHECK(std::filesystem::exists(lock));
}
