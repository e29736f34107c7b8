#include "lectern/run/shell/output_files.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "lectern/nn/output_file.h"
#include "lectern/run/shell/output_lock.h"

namespace run {

namespace fs = std::filesystem;

namespace {

struct Registry {
    std::vector<std::string> inputs;
    std::vector<std::string> outputs;
};
Registry& registry() {
    static Registry r;
    return r;
}

std::string input_clash(const std::string& path, const std::string& input) {
    return path == input
               ? fmt::format("{} is an input of this run; it is never overwritten", path)
               : fmt::format("{} is the same file as {}, an input of this run; it is never overwritten", path, input);
}

// Why `path` cannot be an output, or "".
std::string output_problem(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) return fmt::format("{} is a folder, not a file", path);
        if (!S_ISREG(st.st_mode))
            return fmt::format("{} exists and is not a regular file (a device, FIFO or socket); it is never replaced",
                               path);
    }
    for (const std::string& input : registry().inputs)
        if (same_file(path, input)) return input_clash(path, input);
    return "";
}

// Throws unless a file can be created in `folder` now: a probe file is made
// and removed (access() is no test for root, who may write anywhere but a
// read-only or pseudo file system).
void probe_writable(const std::string& flag, const fs::path& folder) {
    std::string probe = (folder / ".lectern-write-probe-XXXXXX").string();
    int fd = mkstemp(probe.data());
    if (fd < 0)
        throw CLI::ValidationError(flag, fmt::format("cannot write in the folder {}: {}", folder.string(),
                                                     std::strerror(errno)));
    close(fd);
    unlink(probe.c_str());
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
    std::error_code ec;
    if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
    fs::path ca = fs::weakly_canonical(a, ec), cb = fs::weakly_canonical(b, ec);
    return !ec && ca == cb;
}

void register_input(const std::string& path) {
    if (!path.empty()) registry().inputs.push_back(path);
}

void check_output_file(const std::string& flag, const std::string& path) {
    if (path.empty()) return;
    if (std::string problem = output_problem(path); !problem.empty()) throw CLI::ValidationError(flag, problem);
    for (const std::string& other : registry().outputs)
        if (same_file(path, other))
            throw CLI::ValidationError(flag, fmt::format("{} is already another output of this run", path));
    fs::path folder = fs::path(path).parent_path();
    if (folder.empty()) folder = ".";
    if (!fs::is_directory(folder))
        throw CLI::ValidationError(flag, fmt::format("the folder {} does not exist", folder.string()));
    probe_writable(flag, folder);
    registry().outputs.push_back(path);
}

void check_output_folder(const std::string& flag, const std::string& path) {
    if (path.empty()) return;
    for (const std::string& input : registry().inputs)
        if (same_file(path, input)) throw CLI::ValidationError(flag, input_clash(path, input));
    std::error_code ec;
    fs::create_directories(path, ec);
    if (ec) throw CLI::ValidationError(flag, fmt::format("cannot make the folder {}: {}", path, ec.message()));
    if (!fs::is_directory(path)) throw CLI::ValidationError(flag, fmt::format("{} is not a folder", path));
    probe_writable(flag, path);
    // What the programs write there are figures and pages (.png, .svg, .html): one of those
    // names held by a folder or a device would fail its write after the work.
    for (const fs::directory_entry& entry : fs::directory_iterator(path, ec)) {
        const std::string extension = entry.path().extension().string();
        if ((extension == ".png" || extension == ".svg" || extension == ".html") && !entry.is_regular_file(ec))
            throw CLI::ValidationError(flag, fmt::format("{} is not a file, and a figure written there would fail "
                                                         "after the run: move it, or give another folder",
                                                         entry.path().string()));
    }
}

void check_run_outputs(const std::string& save, const std::string& csv, const std::string& figures) {
    check_output_file("--save", save);
    lock_output("--save", save);
    check_output_file("--csv", csv);
    check_output_folder("--figures", figures);
}

bool is_input(const std::string& path) {
    for (const std::string& input : registry().inputs)
        if (same_file(path, input)) return true;
    return false;
}

void require_not_an_input(const std::string& path) {
    for (const std::string& input : registry().inputs)
        if (same_file(path, input)) throw std::runtime_error(input_clash(path, input));
}

void write_output(const std::string& path, std::string_view bytes) {
    require_not_an_input(path);
    try {
        nn::write_file_atomically(path, bytes);
    } catch (const nn::OutputError& e) {
        throw std::runtime_error(fmt::format("cannot write {}: {}", path, e.what()));
    }
}

}  // namespace run
