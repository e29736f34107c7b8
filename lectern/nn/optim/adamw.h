#pragma once
#include "lectern/nn/optim/adam.h"

namespace nn::optim {

// torch.optim.AdamW (Loshchilov & Hutter): Adam with decoupled weight decay,
// p -= lr wd p before the Adam step; the decay never enters the moments.
// PyTorch's default weight decay for AdamW, 1e-2, applies when none is given.
class AdamW : public Adam {
public:
    AdamW(std::vector<Tensor> params, AdamWOptions options = {});
    AdamW(const NamedParameters& params, AdamWOptions options = {});  // errors name the parameters
    AdamW(std::vector<ParamGroup> groups, AdamWOptions options = {});
};

}  // namespace nn::optim
