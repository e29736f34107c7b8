
#include "benchmarks/records.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <limits>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

namespace benchmarks {

double Record::number(const std::string& key) const {
    auto it = numbers.find(key);
    return it == numbers.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
}

std::string Record::string(const std::string& key) const {
    auto it = strings.find(key);
    return it == strings.end() ? std::string() : it->second;
}

namespace {

std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + '"';
}

// A small recursive-descent reader of the one shape this format has.
class Reader {
public:
    explicit Reader(const std::string& text) : p_(text.c_str()) {}

    std::optional<Record> object() {
        Record r;
        if (!take('{')) return std::nullopt;
        if (take('}')) return end() ? std::optional(r) : std::nullopt;
        do {
            std::string key;
            if (!string(key) || !take(':')) return std::nullopt;
            skip_space();
            if (*p_ == '"') {
                std::string value;
                if (!string(value)) return std::nullopt;
                r.strings[key] = value;
            } else if (!word("null") && !word("true") && !word("false")) {
                char* end = nullptr;
                double v = std::strtod(p_, &end);
                if (end == p_) return std::nullopt;
                r.numbers[key] = v;
                p_ = end;
            }
        } while (take(','));
        return take('}') && end() ? std::optional(r) : std::nullopt;
    }

private:
    void skip_space() {
        while (std::isspace(static_cast<unsigned char>(*p_))) ++p_;
    }
    bool take(char c) {
        skip_space();
        if (*p_ != c) return false;
        ++p_;
        return true;
    }
    bool word(const char* w) {
        if (std::strncmp(p_, w, std::strlen(w)) != 0) return false;
        p_ += std::strlen(w);
        return true;
    }
    bool end() {
        skip_space();
        return *p_ == '\0';
    }
    bool string(std::string& out) {
        if (!take('"')) return false;
        for (; *p_ && *p_ != '"'; ++p_) {
            if (*p_ == '\\' && p_[1]) ++p_;  // \" and \\ (the only escapes these lines hold)
            out += *p_;
        }
        return take('"');
    }

    const char* p_;
};

}  // namespace

std::string to_json_line(const Record& r) {
    std::string out;
    for (const auto& [k, v] : r.strings) out += fmt::format("{}{}: {}", out.empty() ? "" : ", ", quoted(k), quoted(v));
    for (const auto& [k, v] : r.numbers)
        out += fmt::format("{}{}: {}", out.empty() ? "" : ", ", quoted(k),
                           std::isfinite(v) ? fmt::format("{}", v) : "null");
    return "{" + out + "}";
}

std::optional<Record> parse_json_line(const std::string& line) { return Reader(line).object(); }

StartedChild start_child(const std::vector<std::string>& argv, bool quiet) {
    StartedChild child;
    int pipe_fd[2];
    if (argv.empty() || pipe(pipe_fd) != 0) return child;
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = fork();
    if (pid < 0) {
        close(pipe_fd[0]);
        close(pipe_fd[1]);
        return child;
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
    child.pid = pid;
    child.stdout_fd = pipe_fd[0];
    return child;
}

ChildOutput finish_child(const StartedChild& child) {
    ChildOutput out;
    if (child.pid <= 0) return out;
    char buffer[4096];
    for (ssize_t n; (n = read(child.stdout_fd, buffer, sizeof buffer)) != 0;) {
        if (n < 0) {
            if (errno == EINTR) continue;
            break;
        }
        out.stdout_text.append(buffer, static_cast<std::size_t>(n));
    }
    close(child.stdout_fd);
    int status = 0;
    while (waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
    }
    out.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
}

ChildOutput run_child(const std::vector<std::string>& argv, bool quiet) {
    return finish_child(start_child(argv, quiet));
}

std::string self_path() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

}  // namespace benchmarks
