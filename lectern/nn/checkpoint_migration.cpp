#include "lectern/nn/checkpoint_migration.h"

#include <set>

namespace nn::checkpoint_migration {

using namespace checkpoint_format;

Kind last_kind(std::uint32_t version) { return version >= 6 ? kBuffer : version >= 4 ? kRunRecord : kOptimizerState; }

// Before version 3, PatchEmbedding kept E_pos as its own parameter "position";
// it is now a LearnedPositionalEmbedding, whose table is "position.weight".
std::string parameter_name(std::uint32_t version, const std::string& name) {
    if (version >= 3) return name;
    const std::string old = "position";
    bool is_old = name == old || (name.size() > old.size() && name.ends_with("." + old));
    return is_old ? name + ".weight" : name;
}

// Version 1 kept one step count for the whole optimizer, and bias-corrected
// every parameter with it: each parameter that has state is given that count.
void upgrade_optimizer_state(std::uint32_t version, std::int64_t step,
                             std::vector<std::pair<std::string, autograd::Tensor>>& state) {
    if (version >= 2) return;
    std::set<std::string> indices;
    for (const auto& [name, t] : state)
        if (auto dot = name.rfind('.'); dot != std::string::npos) indices.insert(name.substr(dot + 1));
    for (const std::string& i : indices)
        state.emplace_back("step." + i, autograd::tensor({static_cast<double>(step)}, {1}, autograd::Dtype::int64));
}

}  // namespace nn::checkpoint_migration
