#include "lectern/run/presets.h"

#include <algorithm>

#include "lectern/nn/checkpoint.h"

namespace run {

namespace {

bool has_quick(const std::vector<std::string>& names) {
    return std::find(names.begin(), names.end(), "quick") != names.end();
}

}  // namespace

std::string chosen_preset(int argc, char** argv, const std::vector<std::string>& names, const std::string& fallback) {
    std::string preset, resume, load;
    bool quick = false;
    CLI::App pre;
    pre.allow_extras();
    pre.set_help_flag();
    pre.add_option("--preset", preset);
    pre.add_option("--resume", resume);
    pre.add_option("--load", load);
    if (has_quick(names)) pre.add_flag("--quick", quick);
    try {
        pre.parse(argc, argv);
    } catch (const CLI::ParseError&) {
        return fallback;  // the full parse reports it
    }
    if (quick) return "quick";
    if (!preset.empty()) return preset;
    if (const std::string& file = resume.empty() ? load : resume; !file.empty()) {
        try {
            const nn::RunRecord record = nn::read_run_record(file);
            if (auto it = record.text.find("flag.--preset"); it != record.text.end()) return it->second;
        } catch (const nn::CheckpointError&) {
            // the checkpoint flags' check names the file and what is wrong with it
        }
    }
    return fallback;
}

void add_preset_flags(CLI::App& app, std::string& preset, const std::vector<std::string>& names, const std::string& help) {
    CLI::Option* named = app.add_option("--preset", preset, help)->check(CLI::IsMember(names));
    if (has_quick(names))
        app.add_flag_callback("--quick", [&preset] { preset = "quick"; }, "the preset quick: a short run on less (the test suite's)")
            ->excludes(named);
}

}  // namespace run
