// nn::Module's state_dict() and load_state_dict() (module.h).
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lectern/nn/module.h"

namespace nn {

StateDict Module::state_dict() const {
    StateDict out;
    for (const auto& [name, p] : named_parameters()) out.emplace(name, p.detach().clone());
    for (const auto& [name, b] : named_buffers()) out.emplace(name, b.clone());
    return out;
}

StateDictKeys Module::load_state_dict(const StateDict& dict, bool strict) {
    StateDictKeys keys;
    std::vector<std::string> misshaped;
    auto params = named_parameters();  // and the saved buffers, which load the same way
    for (auto& named : named_buffers()) params.push_back(std::move(named));
    for (const auto& [name, p] : params) {
        auto it = dict.find(name);
        if (it == dict.end()) {
            keys.missing.push_back(name);
        } else if (!it->second.defined() || it->second.shape() != p.shape()) {
            misshaped.push_back(
                fmt::format("{} ({} in the dict, {} in the module)", name,
                            it->second.defined() ? autograd::shape_str(it->second.shape()) : "undefined",
                            autograd::shape_str(p.shape())));
        }
    }
    for (const auto& entry : dict) {  // not a structured binding: clang before 16 cannot capture one
        const std::string& name = entry.first;
        const bool known = std::any_of(params.begin(), params.end(), [&](const auto& np) { return np.first == name; });
        if (!known) keys.unexpected.push_back(name);
    }
    std::vector<std::string> problems;
    if (strict && !keys.missing.empty()) problems.push_back(fmt::format("missing {}", fmt::join(keys.missing, ", ")));
    if (strict && !keys.unexpected.empty())
        problems.push_back(fmt::format("unexpected {}", fmt::join(keys.unexpected, ", ")));
    if (!misshaped.empty()) problems.push_back(fmt::format("shapes differ for {}", fmt::join(misshaped, ", ")));
    if (!problems.empty())
        throw autograd::ValueError(fmt::format("load_state_dict: {}; nothing was loaded", fmt::join(problems, "; ")));

    autograd::NoGradGuard no_grad;  // the parameters require grad; the copy is not part of a graph
    for (auto& [name, p] : params)
        if (auto it = dict.find(name); it != dict.end()) p.copy_(it->second.to(p.dtype()));
    return keys;
}

}  // namespace nn
