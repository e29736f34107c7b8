#include "lectern/run/flags/flag_groups.h"

namespace run {

CLI::Option* FlagGroup::declare(CLI::Option* opt) {
    opt->group(heading_);
    declared_->push_back({opt->get_name(), recorded_, absent_});
    return opt;
}

std::vector<DeclaredFlag> Flags::recorded(Recorded recorded) const {
    std::vector<DeclaredFlag> out;
    for (const DeclaredFlag& f : declared_)
        if (f.recorded == recorded) out.push_back(f);
    return out;
}

std::vector<DeclaredFlag> Flags::recorded() const {
    std::vector<DeclaredFlag> out;
    for (const DeclaredFlag& f : declared_)
        if (f.recorded != Recorded::none) out.push_back(f);
    return out;
}

}  // namespace run
