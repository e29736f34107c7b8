#include "benchmarks/busy_processes.h"

#include <csignal>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

namespace benchmarks {

namespace {

[[noreturn]] void spin_until_killed(unsigned max_seconds, pid_t parent) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(0);  // the parent died before the line above
    alarm(max_seconds);                 // SIGALRM's default action ends the process
    volatile double x = 1.0;
    for (;;) x = x * 1.0000001 + 1e-9;
}

}  // namespace

BusyProcesses::BusyProcesses(int count, unsigned max_seconds) {
    const pid_t parent = getpid();
    for (int i = 0; i < count; ++i) {
        const pid_t pid = fork();
        if (pid < 0) {
            stop();
            throw std::runtime_error(fmt::format("--load: could not start busy process {} of {}", i + 1, count));
        }
        if (pid == 0) spin_until_killed(max_seconds, parent);
        pids_.push_back(pid);
    }
}

BusyProcesses::~BusyProcesses() { stop(); }

void BusyProcesses::stop() {
    for (int pid : pids_) kill(pid, SIGKILL);
    for (int pid : pids_) waitpid(pid, nullptr, 0);
    pids_.clear();
}

}  // namespace benchmarks
