#include "lectern/nn/module_dict.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace nn {

ModuleDict::ModuleDict(const std::vector<Item>& items) {
    for (const auto& [name, m] : items) insert(name, m);
}

bool ModuleDict::contains(const std::string& name) const {
    return std::any_of(items_.begin(), items_.end(), [&](const Item& item) { return item.first == name; });
}

std::vector<std::string> ModuleDict::keys() const {
    std::vector<std::string> names;
    for (const auto& item : items_) names.push_back(item.first);
    return names;
}

Module& ModuleDict::operator[](const std::string& name) const {
    for (const auto& [key, m] : items_)
        if (key == name) return *m;
    throw autograd::IndexError(
        fmt::format("ModuleDict: no module named '{}'; the keys are [{}]", name, fmt::join(keys(), ", ")));
}

}  // namespace nn
