#include "run/presets.h"

#include <algorithm>

namespace run {

namespace {

bool has_quick(const std::vector<std::string>& names) {
    return std::find(names.begin(), names.end(), "quick") != names.end();
}

}  // namespace

std::string chosen_preset(int argc, char** argv, const std::vector<std::string>& names, const std::string& fallback) {
    std::string preset = fallback;
    bool quick = false;
    CLI::App pre;
    pre.allow_extras();
    pre.set_help_flag();
    pre.add_option("--preset", preset);
    if (has_quick(names)) pre.add_flag("--quick", quick);
    try {
        pre.parse(argc, argv);
    } catch (const CLI::ParseError&) {
        return fallback;  // the full parse reports it
    }
    return quick ? "quick" : preset;
}

void add_preset_flags(CLI::App& app, std::string& preset, const std::vector<std::string>& names, const std::string& help) {
    CLI::Option* named = app.add_option("--preset", preset, help)->check(CLI::IsMember(names));
    if (has_quick(names))
        app.add_flag_callback("--quick", [&preset] { preset = "quick"; }, "the preset quick: a short run on less (the test suite's)")
            ->excludes(named);
}

}  // namespace run
