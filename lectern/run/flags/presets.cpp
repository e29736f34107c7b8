#include "lectern/run/flags/presets.h"

#include <algorithm>

namespace run {

namespace {

bool has_quick(const std::vector<std::string>& names) {
    return std::find(names.begin(), names.end(), "quick") != names.end();
}

}  // namespace

EarlyFlags early_flags(int argc, char** argv, const std::vector<std::string>& names) {
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
        return {};  // the full parse reports it
    }
    EarlyFlags early{quick ? "quick" : preset, "", ""};
    if (!resume.empty()) early.checkpoint_flag = "--resume", early.checkpoint = resume;
    else if (!load.empty()) early.checkpoint_flag = "--load", early.checkpoint = load;
    return early;
}

std::string chosen_preset(const EarlyFlags& early, const nn::RunRecord& saved, const std::string& fallback) {
    if (!early.preset.empty()) return early.preset;
    if (auto it = saved.text.find("flag.--preset"); it != saved.text.end()) return it->second;
    return fallback;
}

void add_preset_flags(FlagGroup& group, std::string& preset, const std::vector<std::string>& names,
                      const std::string& help) {
    CLI::Option* named = group.add("--preset", preset, help)->check(CLI::IsMember(names));
    if (has_quick(names))
        group.app()
            .add_flag_callback(
                "--quick", [&preset] { preset = "quick"; }, "the preset quick: a short run on less (the test suite's)")
            ->excludes(named)
            ->group(named->get_group());
}

}  // namespace run
