#pragma once
// What the file tests share: a temporary folder of their own, whole-file
// reads and writes, and a full disk as write() sees it.
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <catch2/catch.hpp>
#include <fmt/format.h>

namespace testing {

// <tmp>/lectern-<name>-<pid>, made now and removed with everything in it.
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& name)
        : path(std::filesystem::temp_directory_path() / fmt::format("lectern-{}-{}", name, ::getpid())) {
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string file(const std::string& name) const { return (path / name).string(); }
};

inline std::string read_all(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
inline void write_all(const std::string& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Runs f() with every file limited to `bytes`: a write past it fails with
// EFBIG, as on a full disk (SIGXFSZ ignored meanwhile).
template <class F> void with_file_limit(std::size_t bytes, F f) {
    rlimit old{};
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &old) == 0);
    auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit tight = old;
    tight.rlim_cur = bytes;
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &tight) == 0);
    f();
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, old_handler);
}

}  // namespace testing
