#include "lectern/nn/optim/sgd.h"

#include <fmt/format.h>

namespace nn::optim {

using namespace autograd;

SGD::SGD(std::vector<Tensor> params, SGDOptions o) : SGD(std::vector{ParamGroup{std::move(params)}}, o) {}

SGD::SGD(const NamedParameters& params, SGDOptions o) : SGD(std::vector{named_group(params)}, o) {}

SGD::SGD(std::vector<ParamGroup> groups, SGDOptions o)
    : Optimizer(std::move(groups), o.lr, o.weight_decay), options(o) {
    if (o.momentum < 0 || o.weight_decay < 0 || o.dampening < 0)
        throw ValueError(fmt::format("SGD: momentum {}, dampening {} and weight_decay {} must be >= 0", o.momentum,
                                     o.dampening, o.weight_decay));
    if (o.nesterov && (o.momentum <= 0 || o.dampening != 0))
        throw ValueError("SGD: Nesterov momentum needs momentum > 0 and dampening 0");
}

void SGD::update(std::size_t i, Tensor& param, const Tensor& grad) {
    const bool first = !has_state("momentum_buffer", i);  // the buffer starts as the first gradient
    dispatch_floating(param.dtype(), [&](auto zero) {
        using T = decltype(zero);
        T* p = param.data<T>();
        const T* g = grad.data<T>();
        T* b = options.momentum != 0 ? state("momentum_buffer", i).data<T>() : nullptr;
        const T lr = static_cast<T>(lr_of(i)), wd = static_cast<T>(weight_decay_of(i)),
                mu = static_cast<T>(options.momentum), damp = static_cast<T>(1 - options.dampening);
        for (std::int64_t k = 0, n = param.numel(); k < n; ++k) {
            T d = g[k] + wd * p[k];
            if (b) {
                b[k] = first ? d : mu * b[k] + damp * d;
                d = options.nesterov ? d + mu * b[k] : b[k];
            }
            p[k] -= lr * d;
        }
    });
}

}  // namespace nn::optim
