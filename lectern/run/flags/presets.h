#pragma once
// A preset is a named set of defaults: read before the other flags are added,
// so that a flag given on the command line overrides what its preset set.
// `--quick`, where a program has it, is the preset "quick" (the test suite's
// short run). The chosen preset is the --preset flag's recorded value.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "lectern/nn/checkpoint.h"
#include "lectern/run/flags/flag_groups.h"

namespace run {

// What the command line says before its full parse: the preset it names and
// the checkpoint --resume or --load names (flag and path; both empty if none).
// A command line the full parse will refuse says nothing here.
struct EarlyFlags {
    std::string preset;
    std::string checkpoint_flag, checkpoint;
};
EarlyFlags early_flags(int argc, char** argv, const std::vector<std::string>& names);

// The preset `early` names (--preset NAME, or --quick for "quick"); else the
// one `saved` records (the run record of the checkpoint --resume or --load
// names), so that a resumed run has its preset's defaults for the flags a
// checkpoint does not record (what it prints); else `fallback`. A name not
// among the presets is left for the full parse and its checks to refuse.
std::string chosen_preset(const EarlyFlags& early, const nn::RunRecord& saved, const std::string& fallback);

// Declares --preset (one of `names`) in `group` (the run's: a checkpoint
// records it), and --quick when "quick" is one of them.
void add_preset_flags(FlagGroup& group, std::string& preset, const std::vector<std::string>& names,
                      const std::string& help);

}  // namespace run
