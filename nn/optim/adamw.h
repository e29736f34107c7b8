#pragma once
#include "nn/optim/adam.h"

namespace nn::optim {

// AdamW's options: Adam's, with PyTorch's default weight decay for AdamW.
struct AdamWOptions {
    double lr = 1e-3;
    double beta1 = 0.9;
    double beta2 = 0.999;
    double eps = 1e-8;
    double weight_decay = 1e-2;
};

// torch.optim.AdamW (Loshchilov & Hutter): Adam with decoupled weight decay,
// p -= lr wd p before the Adam step; the decay never enters the moments.
class AdamW : public Adam {
public:
    AdamW(std::vector<Tensor> params, AdamWOptions options = {});

protected:
    void update(std::size_t i, Tensor& param, const Tensor& grad) override;
};

}  // namespace nn::optim
