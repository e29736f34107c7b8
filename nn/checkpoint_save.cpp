// Saving a checkpoint: the records in memory, then an exclusive temporary file,
// synced and renamed over the old one.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>

#include <fmt/format.h>

#include "nn/checkpoint.h"
#include "nn/checkpoint_format.h"

namespace nn {

using namespace autograd;
using namespace checkpoint_format;

namespace {

// The whole file, built in memory before anything touches the disk.
struct Writer {
    std::string bytes;
    template <class T> void put(T v) { bytes.append(reinterpret_cast<const char*>(&v), sizeof v); }
    void put_bytes(const void* p, std::size_t n) { bytes.append(static_cast<const char*>(p), n); }
    void put_tensor(Kind kind, const std::string& name, const Tensor& t) {
        put<std::uint8_t>(kind);
        put<std::uint32_t>(static_cast<std::uint32_t>(name.size()));
        put_bytes(name.data(), name.size());
        put<std::uint8_t>(dtype_code(t.dtype()));
        put<std::uint32_t>(static_cast<std::uint32_t>(t.dim()));
        for (auto d : t.shape()) put<std::int64_t>(d);
        put_bytes(t.raw_data(), static_cast<std::size_t>(t.numel()) * dtype_size(t.dtype()));
    }
};

// Creates a new temporary file beside `path` (same folder, so the rename is
// atomic). O_EXCL and O_NOFOLLOW: whatever already has the name, a link planted
// there or another process's save in progress, is never followed, truncated or
// reused; a fresh random name is tried instead.
std::pair<int, std::string> create_temporary(const std::string& path) {
    std::random_device random;
    for (int attempt = 0; attempt < 16; ++attempt) {
        std::string tmp = attempt == 0 ? path + ".tmp" : fmt::format("{}.tmp.{:08x}", path, random());
        int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) return {fd, tmp};
        if (errno != EEXIST)
            throw CheckpointError(fmt::format("save_checkpoint: cannot create {}: {}", tmp, std::strerror(errno)));
    }
    throw CheckpointError(fmt::format("save_checkpoint: cannot create a temporary file beside {}: 16 names taken", path));
}

bool write_fully(int fd, const std::string& bytes) {
    for (std::size_t done = 0; done < bytes.size();) {
        ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

// Makes the rename itself durable. Best effort: the new file is already in
// place, so a folder that cannot be synced is not a failed save.
void sync_folder_of(const std::string& path) {
    std::string dir = std::filesystem::path(path).parent_path().string();
    int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

}  // namespace

void save_checkpoint(const std::string& path, const Module& module, const optim::Optimizer* optimizer) {
    auto params = module.named_parameters();
    std::vector<std::pair<std::string, Tensor>> state;
    if (optimizer) state = optimizer->named_state();
    Writer w;
    w.put_bytes(kMagic, sizeof kMagic);
    w.put<std::uint32_t>(kVersion);
    w.put<std::uint32_t>(optimizer ? 1u : 0u);
    w.put<std::int64_t>(optimizer ? optimizer->step_count() : 0);
    w.put<std::uint32_t>(static_cast<std::uint32_t>(params.size() + state.size()));
    for (const auto& [name, t] : params) w.put_tensor(kParameter, name, t);
    for (const auto& [name, t] : state) w.put_tensor(kOptimizerState, name, t);
    w.put<std::uint32_t>(crc_of(w.bytes, sizeof kMagic, w.bytes.size()));

    // Write and sync a temporary file, then rename it over the old one: the
    // previous checkpoint survives a failed write, a crash or a power loss.
    auto [fd, tmp] = create_temporary(path);
    bool ok = write_fully(fd, w.bytes) && ::fsync(fd) == 0;
    int err = ok ? 0 : errno;
    if (::close(fd) != 0 && ok) ok = false, err = errno;
    if (ok && ::rename(tmp.c_str(), path.c_str()) != 0) {
        err = errno;
        ::unlink(tmp.c_str());
        throw CheckpointError(fmt::format("save_checkpoint: cannot rename {} to {}: {}", tmp, path, std::strerror(err)));
    }
    if (!ok) {
        ::unlink(tmp.c_str());
        throw CheckpointError(fmt::format("save_checkpoint: writing {} failed: {}", tmp, std::strerror(err)));
    }
    sync_folder_of(path);
}

}  // namespace nn
