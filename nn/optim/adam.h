#pragma once
#include <optional>

#include "nn/optim/optimizer.h"

namespace nn::optim {

// Adam's and AdamW's options, PyTorch's names and defaults. Unset, the weight
// decay is each optimizer's own default: 0 for Adam, 1e-2 for AdamW.
struct AdamOptions {
    double lr = 1e-3;
    double beta1 = 0.9;
    double beta2 = 0.999;
    double eps = 1e-8;
    std::optional<double> weight_decay = std::nullopt;  // Adam: L2, added to the gradient; AdamW: decoupled
};
using AdamWOptions = AdamOptions;

// torch.optim.Adam (Kingma & Ba): g = grad + wd p;
//   m = b1 m + (1 - b1) g,  v = b2 v + (1 - b2) g^2,
//   p -= lr (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps),
// t counting this parameter's updates (a late parameter starts at t = 1).
class Adam : public Optimizer {
public:
    Adam(std::vector<Tensor> params, AdamOptions options = {});
    double weight_decay() const { return weight_decay_; }

    AdamOptions options;

protected:
    Adam(std::vector<Tensor> params, AdamOptions options, double default_weight_decay);
    void update(std::size_t i, Tensor& param, const Tensor& grad) override;
    // The shared moment update; `decoupled` applies weight decay as AdamW does.
    void adam_update(std::size_t i, Tensor& param, const Tensor& grad, bool decoupled);

private:
    double weight_decay_;
};

}  // namespace nn::optim
