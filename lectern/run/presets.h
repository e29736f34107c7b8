#pragma once
// A preset is a named set of defaults: read before the other flags are added,
// so that a flag given on the command line overrides what its preset set.
// `--quick`, where a program has it, is the preset "quick" (the test suite's
// short run). The chosen preset is the --preset flag's recorded value.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "lectern/nn/checkpoint.h"
#include "lectern/run/flag_groups.h"

namespace run {

// The preset the command line names (--preset NAME, or --quick for "quick");
// else the one recorded in the checkpoint --resume or --load names, so that a
// resumed run has its preset's defaults for the flags a checkpoint does not
// record (what it prints); else `fallback`. A name not in `names`, or a file
// that cannot be read, is left for the full parse and its checks to refuse.
std::string chosen_preset(int argc, char** argv, const std::vector<std::string>& names, const std::string& fallback);

// What the command line says before its full parse: the preset it names and
// the checkpoint --resume or --load names (flag and path; both empty if none).
// A command line the full parse will refuse says nothing here.
struct EarlyFlags {
    std::string preset;
    std::string checkpoint_flag, checkpoint;
};
EarlyFlags early_flags(int argc, char** argv, const std::vector<std::string>& names);

// The preset `early` names; else the one `saved` (the checkpoint's run record)
// records; else `fallback`.
std::string chosen_preset(const EarlyFlags& early, const nn::RunRecord& saved, const std::string& fallback);

// Adds --preset (one of `names`), and --quick when "quick" is one of them.
void add_preset_flags(CLI::App& app, std::string& preset, const std::vector<std::string>& names, const std::string& help);
// The same, --preset declared in `group` (the run's: a checkpoint records it).
void add_preset_flags(FlagGroup& group, std::string& preset, const std::vector<std::string>& names, const std::string& help);

}  // namespace run
