#include "lectern/run/shell/output_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "lectern/distributed/communicator.h"
#include "lectern/run/shell/interruption.h"

namespace run {

namespace {

// The locks this process holds, lock file -> descriptor; released and removed at exit.
struct HeldLocks {
    std::map<std::string, int> fds;
    ~HeldLocks() {
        for (const auto& [path, fd] : fds) {
            unlink(path.c_str());  // before the lock goes: a run that opened it now finds it gone (below)
            close(fd);
        }
    }
};
HeldLocks& held() {
    static HeldLocks locks;
    return locks;
}

std::string pid_in(int fd) {
    char text[32] = {};
    const ssize_t n = pread(fd, text, sizeof text - 1, 0);
    std::string pid(text, static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
    return pid.substr(0, pid.find_first_not_of("0123456789"));
}

// Whether `fd` holds what a run's lock file holds: nothing yet, or a pid and a line break. Any
// other file of that name is someone's own, which a run never truncates or removes.
bool holds_a_lock(int fd, const struct stat& st) {
    if (!S_ISREG(st.st_mode) || st.st_size > 32) return false;
    char text[33] = {};
    const ssize_t n = pread(fd, text, sizeof text - 1, 0);
    if (n < 0) return false;
    const std::string s(text, static_cast<std::size_t>(n));
    return s.empty() || (s.size() >= 2 && s.back() == '\n' && s.find_first_not_of("0123456789") == s.size() - 1);
}

}  // namespace

void lock_output(const std::string& flag, const std::string& path) {
    if (path.empty() || !distributed::Communicator::world().is_root()) return;
    const std::string lock = path + ".lock";
    if (held().fds.contains(lock)) return;
    // A run that ends removes its lock file before it lets go: a lock taken on
    // a file no longer at that name is dropped and taken again on the new one.
    for (int attempt = 0; attempt < 100; ++attempt) {
        const int fd = open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd < 0)
            throw CLI::ValidationError(flag,
                                       fmt::format("cannot make the lock file {}: {}", lock, std::strerror(errno)));
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            const int error = errno;
            const std::string pid = pid_in(fd);
            close(fd);
            if (error != EWOULDBLOCK)
                throw CLI::ValidationError(flag, fmt::format("cannot lock {}: {}", lock, std::strerror(error)));
            throw CLI::ValidationError(flag,
                                       fmt::format("{} is being written by another run{} (it holds {}): wait for it "
                                                   "to end, or save elsewhere",
                                                   path, pid.empty() ? "" : ", pid " + pid, lock));
        }
        struct stat held_stat {
        }, named{};
        if (fstat(fd, &held_stat) == 0 && stat(lock.c_str(), &named) == 0 && held_stat.st_ino == named.st_ino &&
            held_stat.st_dev == named.st_dev) {
            if (!holds_a_lock(fd, held_stat)) {
                close(fd);
                throw CLI::ValidationError(flag, fmt::format("{} exists and is not a run's lock file (a pid); it is "
                                                             "never replaced: move it, or save elsewhere",
                                                             lock));
            }
            const std::string pid = std::to_string(getpid()) + "\n";
            if (ftruncate(fd, 0) != 0 || pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size()))
                throw CLI::ValidationError(flag, fmt::format("cannot write the lock file {}: {}", lock,
                                                             std::strerror(errno)));
            held().fds.emplace(lock, fd);
            remove_if_killed(lock);
            return;
        }
        close(fd);
    }
    throw CLI::ValidationError(flag, fmt::format("cannot lock {}: it keeps being replaced", lock));
}

}  // namespace run
