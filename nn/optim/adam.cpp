#include "nn/optim/adam.h"

#include <cmath>

#include <fmt/format.h>

#include "autograd/parallel.h"

namespace nn::optim {

using namespace autograd;

Adam::Adam(std::vector<Tensor> params, AdamOptions o) : Adam(std::move(params), o, 0.0) {}

Adam::Adam(std::vector<Tensor> params, AdamOptions o, double default_weight_decay)
    : Optimizer(std::move(params), o.lr), options(o), weight_decay_(o.weight_decay.value_or(default_weight_decay)) {
    if (!(o.beta1 >= 0 && o.beta1 < 1) || !(o.beta2 >= 0 && o.beta2 < 1))
        throw ValueError(fmt::format("Adam: betas ({}, {}) must be in [0, 1)", o.beta1, o.beta2));
    if (!(o.eps >= 0) || !(weight_decay_ >= 0))
        throw ValueError(fmt::format("Adam: eps {} and weight_decay {} must be >= 0", o.eps, weight_decay_));
}

void Adam::update(std::size_t i, Tensor& param, const Tensor& grad) { adam_update(i, param, grad, false); }

void Adam::adam_update(std::size_t i, Tensor& param, const Tensor& grad, bool decoupled) {
    const double t = static_cast<double>(param_step_count(i));  // this parameter's own step (PyTorch's state['step'])
    const double c1 = 1 - std::pow(options.beta1, t), c2 = 1 - std::pow(options.beta2, t);
    Tensor& m_state = state("exp_avg", i);
    Tensor& v_state = state("exp_avg_sq", i);
    dispatch_floating(param.dtype(), [&](auto zero) {
        using T = decltype(zero);
        T* p = param.data<T>();
        const T* g = grad.data<T>();
        T* m = m_state.data<T>();
        T* v = v_state.data<T>();
        const T b1 = static_cast<T>(options.beta1), b2 = static_cast<T>(options.beta2), eps = static_cast<T>(options.eps);
        const T step = static_cast<T>(lr_ / c1), inv_sqrt_c2 = static_cast<T>(1 / std::sqrt(c2));
        const T wd = static_cast<T>(weight_decay_), decay = static_cast<T>(1 - lr_ * weight_decay_);
        autograd::parallel_for(param.numel(), 8, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t k = begin; k < end; ++k) {
                T gk = decoupled ? g[k] : g[k] + wd * p[k];
                if (decoupled) p[k] *= decay;  // AdamW: p -= lr wd p, apart from the gradient
                m[k] = b1 * m[k] + (1 - b1) * gk;
                v[k] = b2 * v[k] + (1 - b2) * gk * gk;
                p[k] -= step * m[k] / (std::sqrt(v[k]) * inv_sqrt_c2 + eps);
            }
        });
    });
}

}  // namespace nn::optim
