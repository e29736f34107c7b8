// Atomic writes of output files: temporary file, fsync, checks, rename.
#include "lectern/nn/output_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>

#include <fmt/format.h>

namespace nn {

namespace fs = std::filesystem;

namespace {

std::string folder_of(const std::string& path) {
    std::string dir = fs::path(path).parent_path().string();
    return dir.empty() ? "." : dir;
}

// The pid in a temporary name "<file>.tmp.<pid>" or "<file>.tmp.<pid>.<8 hex>",
// or -1 when `entry` is not such a name.
long temporary_pid(const std::string& entry, const std::string& file) {
    const std::string prefix = file + ".tmp.";
    if (!entry.starts_with(prefix)) return -1;
    std::string rest = entry.substr(prefix.size());
    std::size_t digits = 0;
    while (digits < rest.size() && digits < 10 && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
    if (digits == 0) return -1;
    std::string suffix = rest.substr(digits);
    bool hex_suffix =
        suffix.size() == 9 && suffix[0] == '.' && suffix.find_first_not_of("0123456789abcdef", 1) == std::string::npos;
    if (!suffix.empty() && !hex_suffix) return -1;
    return std::stol(rest.substr(0, digits));
}

bool process_is_gone(long pid) {
    if (pid == static_cast<long>(::getpid())) return true;  // this process writes one file at a time
    return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

// Creates the temporary file: "<path>.tmp.<pid>", or with a random suffix if
// something that is not ours already holds that name.
std::pair<int, std::string> create_temporary(const std::string& path) {
    std::random_device random;
    const std::string base = fmt::format("{}.tmp.{}", path, ::getpid());
    for (int attempt = 0; attempt < 16; ++attempt) {
        std::string tmp = attempt == 0 ? base : fmt::format("{}.{:08x}", base, random());
        int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) return {fd, tmp};
        if (errno != EEXIST) throw OutputError(fmt::format("cannot create {}: {}", tmp, std::strerror(errno)));
    }
    throw OutputError(fmt::format("cannot create a temporary file beside {}: 16 names taken", path));
}

bool write_fully(int fd, std::string_view bytes) {
    for (std::size_t done = 0; done < bytes.size();) {
        ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) errno = EIO;
            return false;
        }
        done += static_cast<std::size_t>(n);
    }
    return true;
}

// Makes the rename itself durable. Best effort: the new file is already in
// place, so a folder that cannot be synced is not a failed write.
void sync_folder(const std::string& dir) {
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

}  // namespace

std::vector<std::string> stale_temporaries(const std::string& path) {
    std::vector<std::string> stale;
    const std::string file = fs::path(path).filename().string();
    std::error_code ec;
    for (fs::directory_iterator it(folder_of(path), ec), end; !ec && it != end; it.increment(ec)) {
        const std::string entry = it->path().filename().string();
        long pid = temporary_pid(entry, file);
        // Regular files only: a link planted at such a name is not ours.
        if (pid > 0 && it->is_regular_file(ec) && !it->is_symlink(ec) && process_is_gone(pid))
            stale.push_back(it->path().string());
    }
    return stale;
}

void write_file_atomically(const std::string& path, std::string_view bytes) {
    if (path.empty()) throw OutputError("an output file needs a name");
    for (const std::string& stale : stale_temporaries(path)) ::unlink(stale.c_str());
    auto [fd, tmp] = create_temporary(path);
    bool ok = write_fully(fd, bytes) && ::fsync(fd) == 0;
    int err = ok ? 0 : errno;
    if (::close(fd) != 0 && ok) ok = false, err = errno;
    if (!ok) {
        ::unlink(tmp.c_str());
        throw OutputError(fmt::format("writing {} failed: {}", tmp, std::strerror(err)));
    }
    // Checked again now, not only when the flags were read: whatever took the
    // name since, a device or a FIFO is never replaced by a regular file.
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        ::unlink(tmp.c_str());
        throw OutputError(
            fmt::format("{} exists and is not a regular file; it is left as it is, and nothing is written in its place",
                        path));
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        err = errno;
        ::unlink(tmp.c_str());
        throw OutputError(fmt::format("cannot rename {} to {}: {}", tmp, path, std::strerror(err)));
    }
    sync_folder(folder_of(path));
}

}  // namespace nn
