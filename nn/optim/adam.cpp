#include "nn/optim/adam.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "autograd/parallel.h"

namespace nn::optim {

using namespace autograd;

Adam::Adam(std::vector<Tensor> params, AdamOptions o) : Adam(std::move(params), o, 0.0, /*decoupled=*/false) {}

Adam::Adam(std::vector<Tensor> params, AdamOptions o, double default_weight_decay, bool decoupled)
    : Optimizer(std::move(params), o.lr),
      options(o),
      weight_decay_(o.weight_decay.value_or(default_weight_decay)),
      decoupled_(decoupled) {
    if (!(o.beta1 >= 0 && o.beta1 < 1) || !(o.beta2 >= 0 && o.beta2 < 1))
        throw ValueError(fmt::format("Adam: betas ({}, {}) must be in [0, 1)", o.beta1, o.beta2));
    if (!(o.eps >= 0) || !(weight_decay_ >= 0))
        throw ValueError(fmt::format("Adam: eps {} and weight_decay {} must be >= 0", o.eps, weight_decay_));
}

void Adam::update(std::size_t i, Tensor&, const Tensor&) { update_all({i}); }

void Adam::update_all(const std::vector<std::size_t>& active) {
    update_all_of<float>(active);
    update_all_of<double>(active);
}

namespace {

// One parameter's update: its arrays and the constants of its step t.
template <class T>
struct AdamJob {
    T* p;
    const T* g;
    T* m;
    T* v;
    T step, inv_sqrt_c2;  // lr / (1 - b1^t), 1 / sqrt(1 - b2^t)
    std::int64_t n;
};

// Elements [lo, hi) of one parameter. A function of its own so that its arrays are
// __restrict__ and the loop vectorises (GCC left it scalar with four arrays that might alias).
template <class T, bool Decoupled>
void adam_elements(T* __restrict__ p, const T* __restrict__ g, T* __restrict__ m, T* __restrict__ v,
                   std::int64_t lo, std::int64_t hi, T step, T inv_sqrt_c2, T b1, T b2, T eps, T wd, T decay) {
    for (std::int64_t k = lo; k < hi; ++k) {
        const T gk = Decoupled ? g[k] : g[k] + wd * p[k];
        if (Decoupled) p[k] *= decay;  // AdamW: p -= lr wd p, apart from the gradient
        m[k] = b1 * m[k] + (1 - b1) * gk;
        v[k] = b2 * v[k] + (1 - b2) * gk * gk;
        p[k] -= step * m[k] / (std::sqrt(v[k]) * inv_sqrt_c2 + eps);
    }
}

}  // namespace

// The active parameters of dtype T, their elements numbered one after another, the numbers
// split over the threads; each element's update is its own, so the split changes nothing.
template <class T>
void Adam::update_all_of(const std::vector<std::size_t>& active) {
    std::vector<AdamJob<T>> jobs;
    std::vector<std::int64_t> first{0};  // jobs[j] holds elements first[j] .. first[j + 1]
    for (std::size_t i : active) {
        Tensor& param = params_[i];
        if (param.dtype() != dtype_of<T>()) continue;
        const double t = static_cast<double>(param_step_count(i));  // this parameter's own step (PyTorch's state['step'])
        const double c1 = 1 - std::pow(options.beta1, t), c2 = 1 - std::pow(options.beta2, t);
        Tensor grad = param.grad();
        jobs.push_back({param.data<T>(), grad.data<T>(), state("exp_avg", i).template data<T>(),
                        state("exp_avg_sq", i).template data<T>(), static_cast<T>(lr_ / c1),
                        static_cast<T>(1 / std::sqrt(c2)), param.numel()});
        first.push_back(first.back() + param.numel());
    }
    if (jobs.empty()) return;
    const T b1 = static_cast<T>(options.beta1), b2 = static_cast<T>(options.beta2), eps = static_cast<T>(options.eps);
    const T wd = static_cast<T>(weight_decay_), decay = static_cast<T>(1 - lr_ * weight_decay_);
    const bool decoupled = decoupled_;
    autograd::parallel_for(first.back(), 8, [&](std::int64_t begin, std::int64_t end) {
        std::size_t j = static_cast<std::size_t>(std::upper_bound(first.begin(), first.end(), begin) - first.begin()) - 1;
        for (; j < jobs.size() && first[j] < end; ++j) {
            const AdamJob<T>& a = jobs[j];
            const std::int64_t lo = std::max(begin, first[j]) - first[j], hi = std::min(end, first[j + 1]) - first[j];
            if (decoupled)
                adam_elements<T, true>(a.p, a.g, a.m, a.v, lo, hi, a.step, a.inv_sqrt_c2, b1, b2, eps, wd, decay);
            else
                adam_elements<T, false>(a.p, a.g, a.m, a.v, lo, hi, a.step, a.inv_sqrt_c2, b1, b2, eps, wd, decay);
        }
    });
}

}  // namespace nn::optim
