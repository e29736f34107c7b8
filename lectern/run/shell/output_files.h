#pragma once
// The files a program writes (a checkpoint, a CSV, a figure) never destroy
// what it reads or what it already wrote. Each output path is checked when the
// flags are read (check_output_file) and again when it is written
// (write_output): it must have a name, must not be an existing folder, device,
// FIFO or socket, and must not be the same file as an input the program
// registered (register_input) or another output. Writes are atomic
// (nn::write_file_atomically) and every failure is an error naming the file.
#include <string>
#include <string_view>

namespace run {

// Two paths name the same file: the same inode when both exist, the same
// absolute path (links in the folders resolved) when one does not yet.
bool same_file(const std::string& a, const std::string& b);

// A file the program reads: no output may ever be written over it.
void register_input(const std::string& path);

// Whether `path` is the same file as an input the program registered.
bool is_input(const std::string& path);

// Flag time: `path` may be written later by this program. Empty paths are the
// caller's "not asked for". Throws CLI::ValidationError naming `flag`.
void check_output_file(const std::string& flag, const std::string& path);
// A folder the program will fill: made now if missing, writable, and with no
// folder or device named as a figure or page (.png, .svg, .html) in it.
void check_output_folder(const std::string& flag, const std::string& path);

// A training program's outputs at flag time: the files --save and --csv, the
// folder --figures ("" is not asked for); --save locked for this run (output_lock.h).
void check_run_outputs(const std::string& save, const std::string& csv, const std::string& figures);

// Writes `bytes` to `path` atomically, after checking it against the inputs;
// std::runtime_error naming the file on any failure.
void write_output(const std::string& path, std::string_view bytes);

// The same checks as write_output, for a writer that is not write_output (a
// checkpoint): throws std::runtime_error if `path` is an input.
void require_not_an_input(const std::string& path);

}  // namespace run
