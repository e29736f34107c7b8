#include "lectern/run/flags/recorded_flags.h"

#include <cstdlib>

#include <fmt/format.h>

#include "lectern/autograd/printable.h"

namespace run {

namespace {

const CLI::Option& option(const CLI::App& app, const std::string& name) {
    const CLI::Option* opt = app.get_option_no_throw(name);
    if (!opt) throw std::logic_error(fmt::format("recorded flag {} is not a flag of this program", name));
    return *opt;
}

bool is_switch(const CLI::Option& opt) { return opt.get_expected_min() == 0; }

// The same value written two ways ("0.1" and "0.10", "4" and "04") compares
// equal; a number is compared as a number, anything else as text.
bool same_value(const std::string& a, const std::string& b) {
    if (a == b) return true;
    char *ea = nullptr, *eb = nullptr;
    long double x = std::strtold(a.c_str(), &ea), y = std::strtold(b.c_str(), &eb);
    return !a.empty() && !b.empty() && *ea == '\0' && *eb == '\0' && x == y;
}

}  // namespace

std::string flag_value(const CLI::App& app, const std::string& name) {
    const CLI::Option& opt = option(app, name);
    if (is_switch(opt)) return opt.count() > 0 && opt.as<bool>() ? "true" : "false";
    return opt.count() > 0 ? opt.results().back() : opt.get_default_str();
}

void record_flags(const CLI::App& app, const std::string& program, const std::vector<DeclaredFlag>& flags,
                  nn::RunRecord& record) {
    record.text["program"] = program;
    for (const DeclaredFlag& f : flags) record.text["flag." + f.name] = flag_value(app, f.name);
}

std::vector<std::string> adopt_flags(CLI::App& app, const nn::RunRecord& record, const std::string& program,
                                     const std::vector<DeclaredFlag>& flags, const std::string& flag,
                                     const std::string& path) {
    if (auto it = record.text.find("program"); it != record.text.end() && it->second != program)
        throw CLI::ValidationError(flag, fmt::format("{} is a checkpoint of {}, not of {}", path,
                                                     autograd::printable(it->second), program));
    std::vector<std::string> adopted;
    for (const auto& [name, recorded, absent] : flags) {
        auto it = record.text.find("flag." + name);
        if (it == record.text.end() && !absent) {
            // The current format holds every flag its program records, but for
            // those declared with their meaning when absent; an older file may
            // predate the flag, which then keeps its value here.
            if (record.current_format)
                throw CLI::ValidationError(flag, fmt::format("{} is damaged: it holds no record of {}, which every {} "
                                                             "checkpoint of this format version holds",
                                                             path, name, program));
            continue;
        }
        const std::string& saved = it == record.text.end() ? *absent : it->second;
        CLI::Option& opt = *app.get_option(name);
        const std::string now = flag_value(app, name);
        if (same_value(now, saved)) continue;
        if (opt.count() > 0)
            throw CLI::ValidationError(name,
                                       fmt::format("{} here, but {} was saved with {} {} (leave the flag out "
                                                   "to use the checkpoint's)",
                                                   autograd::printable(now), path, name, autograd::printable(saved)));
        opt.clear();
        opt.add_result(saved);
        try {
            opt.run_callback();
        } catch (const CLI::ParseError& e) {  // the file's value, not one given on the command line
            throw CLI::ValidationError(flag, fmt::format("{} is damaged: its record of {} is not a value the flag "
                                                         "takes ({})",
                                                         path, name, autograd::printable(e.what(), 300)));
        }
        adopted.push_back(is_switch(opt) ? fmt::format("{}={}", name, autograd::printable(saved))
                                         : fmt::format("{} {}", name, autograd::printable(saved)));
    }
    return adopted;
}

}  // namespace run
