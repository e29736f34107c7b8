#pragma once
#include <optional>

#include "lectern/nn/optim/optimizer.h"

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
// t counting this parameter's updates (a late parameter starts at t = 1), lr and wd
// those of its group.
class Adam : public Optimizer {
public:
    Adam(std::vector<Tensor> params, AdamOptions options = {});
    Adam(const NamedParameters& params, AdamOptions options = {});  // errors name the parameters
    Adam(std::vector<ParamGroup> groups,
         AdamOptions options = {});  // options' lr and weight decay: the groups' default

    AdamOptions options;

protected:
    // `decoupled` applies the weight decay as AdamW does.
    Adam(std::vector<ParamGroup> groups, AdamOptions options, double default_weight_decay, bool decoupled);
    std::vector<std::string> state_names() const override { return {"exp_avg", "exp_avg_sq"}; }
    void update(std::size_t i, Tensor& param, const Tensor& grad) override;
    // Every active parameter's elements in one loop split over the threads (a model's many
    // small parameters would each be too small to split).
    void update_all(const std::vector<std::size_t>& active) override;

private:
    template <class T>
    void update_all_of(const std::vector<std::size_t>& active);
    bool decoupled_;
};

}  // namespace nn::optim
