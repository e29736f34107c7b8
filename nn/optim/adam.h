#pragma once
#include "nn/optim/optimizer.h"

namespace nn::optim {

struct AdamOptions {
    double lr = 1e-3;
    double beta1 = 0.9;
    double beta2 = 0.999;
    double eps = 1e-8;
    double weight_decay = 0;  // Adam: L2, added to the gradient; AdamW: decoupled
};

// torch.optim.Adam (Kingma & Ba): g = grad + wd p;
//   m = b1 m + (1 - b1) g,  v = b2 v + (1 - b2) g^2,
//   p -= lr (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps),
// t counting this parameter's updates (a late parameter starts at t = 1).
class Adam : public Optimizer {
public:
    Adam(std::vector<Tensor> params, AdamOptions options = {});
    AdamOptions options;

protected:
    void update(std::size_t i, Tensor& param, const Tensor& grad) override;
    // The shared moment update; `decoupled` applies weight decay as AdamW does.
    void adam_update(std::size_t i, Tensor& param, const Tensor& grad, bool decoupled);
};

}  // namespace nn::optim
