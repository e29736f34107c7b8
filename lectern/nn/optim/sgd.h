#pragma once
#include "lectern/nn/optim/optimizer.h"

namespace nn::optim {

struct SGDOptions {
    double lr = 1e-2;
    double momentum = 0;
    double dampening = 0;
    double weight_decay = 0;
    bool nesterov = false;
};

// torch.optim.SGD: g = grad + wd p;  with momentum b = mu b + (1 - dampening) g
// (b = g on the first step), and g = g + mu b (Nesterov) or g = b;  p -= lr g,
// lr and wd those of the parameter's group.
class SGD : public Optimizer {
public:
    SGD(std::vector<Tensor> params, SGDOptions options = {});
    SGD(const NamedParameters& params, SGDOptions options = {});   // errors name the parameters
    SGD(std::vector<ParamGroup> groups, SGDOptions options = {});  // options' lr and weight decay: the groups' default
    SGDOptions options;

protected:
    std::vector<std::string> state_names() const override {
        return options.momentum != 0 ? std::vector<std::string>{"momentum_buffer"} : std::vector<std::string>{};
    }
    void update(std::size_t i, Tensor& param, const Tensor& grad) override;
};

}  // namespace nn::optim
