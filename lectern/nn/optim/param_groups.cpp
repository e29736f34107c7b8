#include "lectern/nn/optim/param_groups.h"

namespace nn::optim {

std::vector<ParamGroup> weight_decay_groups(const Module& model, double weight_decay) {
    std::vector<ParamGroup> groups;
    for (const auto& [name, p] : model.named_parameters()) {
        const double wd = p.dim() >= 2 ? weight_decay : 0.0;
        if (groups.empty() || *groups.back().weight_decay != wd) groups.push_back({{}, std::nullopt, wd});
        groups.back().params.push_back(p);
        groups.back().names.push_back(name);
    }
    return groups;
}

}  // namespace nn::optim
