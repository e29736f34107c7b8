#pragma once
#include "nn/optim/adam.h"

namespace nn::optim {

// torch.optim.AdamW (Loshchilov & Hutter): Adam with decoupled weight decay,
// p -= lr wd p before the Adam step; the decay never enters the moments.
// PyTorch's default weight_decay for AdamW is 0.01.
class AdamW : public Adam {
public:
    AdamW(std::vector<Tensor> params, AdamOptions options = {.lr = 1e-3, .weight_decay = 1e-2});

protected:
    void update(std::size_t i, Tensor& param, const Tensor& grad) override;
};

}  // namespace nn::optim
