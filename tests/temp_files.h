#pragma once
// What the file tests share: a temporary folder of their own, whole-file
// reads and writes, a full disk as write() sees it, and a FIFO no one writes.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <random>
#include <string>
#include <thread>

#include <catch2/catch.hpp>
#include <fmt/format.h>

namespace testing {

// <tmp>/lectern-<name>-<pid>-<random>, made now and removed with everything in it. The random
// part keeps two test processes apart where every process has the same pid (node runs the
// WebAssembly build's tests as pid 42).
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& name)
        : path(std::filesystem::temp_directory_path() /
               fmt::format("lectern-{}-{}-{:08x}", name, ::getpid(), std::random_device{}())) {
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
template <class F>
void with_file_limit(std::size_t bytes, F f) {
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

// Emscripten's file system under node, where the WebAssembly build's tests run, makes a
// FIFO as a plain empty file (mkfifo returns 0), and its module has no thread to write
// to one: there the FIFO cases have nothing to test.
#if defined(__EMSCRIPTEN__)
inline constexpr bool kFifosExist = false;
#else
inline constexpr bool kFifosExist = true;
#endif

// What `read(path)` returns (say, the message it threw) for a FIFO made at
// `path` that no process writes. A reader that opens the FIFO waits for a
// writer; after 10 seconds the check fails and this process becomes a writer
// that writes nothing, so the reader sees an empty file: the test fails
// instead of hanging the suite.
template <class F>
std::string from_a_fifo(const std::string& path, F read) {
    REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
    auto result = std::async(std::launch::async, [&] { return read(path); });
    if (result.wait_for(std::chrono::seconds(10)) == std::future_status::timeout) {
        FAIL_CHECK(path << " was opened: its reader waited 10 s for a writer");
        while (result.wait_for(std::chrono::milliseconds(100)) == std::future_status::timeout) {
            const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK);  // fails while no reader has it open
            if (fd >= 0) ::close(fd);
        }
    }
    return result.get();
}

}  // namespace testing
