#include "benchmarks/child_process.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

namespace benchmarks {

ChildOutput run_child(const std::vector<std::string>& argv, bool quiet) {
    ChildOutput out;
    int pipe_fd[2];
    if (argv.empty() || pipe(pipe_fd) != 0) return out;
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = fork();
    if (pid < 0) {
        close(pipe_fd[0]);
        close(pipe_fd[1]);
        return out;
    }
    if (pid == 0) {
        dup2(pipe_fd[1], STDOUT_FILENO);
        close(pipe_fd[0]);
        close(pipe_fd[1]);
        if (quiet) {
            int null_fd = open("/dev/null", O_WRONLY);
            if (null_fd >= 0) dup2(null_fd, STDERR_FILENO);
        }
        execv(args[0], args.data());
        _exit(127);
    }
    close(pipe_fd[1]);
    char buffer[4096];
    for (ssize_t n; (n = read(pipe_fd[0], buffer, sizeof buffer)) != 0;) {
        if (n < 0) {
            if (errno == EINTR) continue;
            break;
        }
        out.stdout_text.append(buffer, static_cast<std::size_t>(n));
    }
    close(pipe_fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    out.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
}

std::string self_path() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

}  // namespace benchmarks
