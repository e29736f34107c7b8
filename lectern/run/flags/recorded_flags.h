#pragma once
// A checkpoint knows the flags its model was built from. A program records the
// flags that shape its model (and, for a run to be resumed, those that change
// its training) in the checkpoint's run record, as "flag.--heads" -> "4"; when
// it is given the checkpoint again (--load, --resume), each recorded flag the
// command line did not give is adopted from the checkpoint, and one it gave
// with another value is refused, naming the flag and both values. Never a
// silently different model.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "lectern/nn/checkpoint.h"
#include "lectern/run/flags/flag_groups.h"

namespace run {

// The value a flag has now in `app`: as given, adopted, or its default (CLI11
// captures defaults: the App needs option_defaults()->always_capture_default()
// before its options are added). A flag without a value is "true" or "false".
std::string flag_value(const CLI::App& app, const std::string& name);

// Writes "program" and "flag.<name>" for each of `flags` into `record`.
void record_flags(const CLI::App& app, const std::string& program, const std::vector<DeclaredFlag>& flags,
                  nn::RunRecord& record);

// Checks `record` (read from `path` for `flag`, --load or --resume) against the
// command line: a checkpoint of another program is refused; each of `flags`
// that the file records and the command line gave with another value is
// refused (CLI::ValidationError); the others are set in `app` to the recorded
// value. Returns the adopted flags as "--heads 4", for the program to say.
// A flag the file holds no record of takes the value its declaration says such
// a file means (DeclaredFlag::absent), as if recorded. Without one, a file of
// the current format version is refused as damaged: its program records that
// flag, and the value cannot be guessed (a missing --heads would build h = 4
// where h = 2 was trained, with every parameter's shape the same). A file of an
// older version adopts what it records (before version 4: nothing), and the
// flags it predates keep their values here.
std::vector<std::string> adopt_flags(CLI::App& app, const nn::RunRecord& record, const std::string& program,
                                     const std::vector<DeclaredFlag>& flags, const std::string& flag,
                                     const std::string& path);

}  // namespace run
