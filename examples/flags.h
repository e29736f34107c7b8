#pragma once
// Flag handling shared by the examples (CLI11): a --preset read before the
// other flags, so the preset sets defaults that explicit flags override, and
// one rule for bad input: one line, "<program>: <reason> (see --help)", exit
// status 2, before any work is done.
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace examples {

// The value of --preset on the command line, or `fallback`.
inline std::string peek_preset(int argc, char** argv, const std::string& fallback) {
    std::string preset = fallback;
    CLI::App pre;
    pre.allow_extras();
    pre.set_help_flag();
    pre.add_option("--preset", preset);
    try {
        pre.parse(argc, argv);
    } catch (const CLI::ParseError&) {
        // The full parse reports it.
    }
    return preset;
}

// A finite number in [lo, hi]. CLI11's Range and PositiveNumber let "nan"
// through (every comparison with NaN is false) and print the largest double
// in full, 309 digits; these reject non-finite values in one short line.
inline CLI::Validator finite_range(double lo, double hi) {
    return CLI::Validator(
        [lo, hi](std::string& text) -> std::string {
            char* end = nullptr;
            double v = std::strtod(text.c_str(), &end);
            if (end == text.c_str() || *end != '\0') return fmt::format("'{}' is not a number", text);
            if (!std::isfinite(v)) return fmt::format("'{}' is not a finite number", text);
            if (v < lo || v > hi) return fmt::format("{} is outside [{:g}, {:g}]", text, lo, hi);
            return "";
        },
        fmt::format("in [{:g}, {:g}]", lo, hi));
}

// A finite number > 0.
inline CLI::Validator finite_positive() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            char* end = nullptr;
            double v = std::strtod(text.c_str(), &end);
            if (end == text.c_str() || *end != '\0') return fmt::format("'{}' is not a number", text);
            if (!std::isfinite(v)) return fmt::format("'{}' is not a finite number", text);
            if (v <= 0) return fmt::format("{} is not positive", text);
            return "";
        },
        "> 0");
}

// Throws unless a file can be created in `folder` now: a probe file is made
// and removed (access() is no test for root, who may write anywhere but a
// read-only or pseudo file system).
inline void probe_writable(const std::string& flag, const std::filesystem::path& folder) {
    std::string probe = (folder / ".lectern-write-probe-XXXXXX").string();
    int fd = mkstemp(probe.data());
    if (fd < 0)
        throw CLI::ValidationError(flag, fmt::format("cannot write in the folder {}: {}", folder.string(),
                                                     std::strerror(errno)));
    close(fd);
    unlink(probe.c_str());
}

// A file the program will write at the end (a checkpoint, a CSV): its folder
// must exist and be writable now, so a long run is not lost to a typo.
inline void check_output_file(const std::string& flag, const std::string& path) {
    if (path.empty()) return;
    namespace fs = std::filesystem;
    fs::path folder = fs::path(path).parent_path();
    if (folder.empty()) folder = ".";
    if (fs::is_directory(path)) throw CLI::ValidationError(flag, fmt::format("{} is a folder, not a file", path));
    if (!fs::is_directory(folder))
        throw CLI::ValidationError(flag, fmt::format("the folder {} does not exist", folder.string()));
    probe_writable(flag, folder);
}

// A folder the program will fill at the end: made now if missing, and writable.
inline void check_output_folder(const std::string& flag, const std::string& path) {
    if (path.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(path, ec);
    if (ec) throw CLI::ValidationError(flag, fmt::format("cannot make the folder {}: {}", path, ec.message()));
    probe_writable(flag, path);
}

// Parses the flags and runs `validate` (which throws CLI::ValidationError for
// values that do not fit together). Returns -1 to go on, or the exit status:
// 0 after --help, 2 after a bad flag (one line on stderr).
inline int parse_flags(CLI::App& app, int argc, char** argv, const char* program,
                       const std::function<void()>& validate) {
    try {
        app.parse(argc, argv);
        validate();
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        fmt::print(stderr, "{}: {} (see --help)\n", program, e.what());
        return 2;
    }
    return -1;
}

}  // namespace examples
