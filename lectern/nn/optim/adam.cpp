#include "lectern/nn/optim/adam.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include <fmt/format.h>

#include "lectern/autograd/parallel.h"
#include "lectern/autograd/reference/adam.h"

namespace nn::optim {

using namespace autograd;

Adam::Adam(std::vector<Tensor> params, AdamOptions o) : Adam(std::vector{ParamGroup{std::move(params)}}, o) {}

Adam::Adam(const NamedParameters& params, AdamOptions o) : Adam(std::vector{named_group(params)}, o) {}

Adam::Adam(std::vector<ParamGroup> groups, AdamOptions o) : Adam(std::move(groups), o, 0.0, /*decoupled=*/false) {}

Adam::Adam(std::vector<ParamGroup> groups, AdamOptions o, double default_weight_decay, bool decoupled)
    : Optimizer(std::move(groups), o.lr, o.weight_decay.value_or(default_weight_decay)),
      options(o),
      decoupled_(decoupled) {
    if (!(o.beta1 >= 0 && o.beta1 < 1) || !(o.beta2 >= 0 && o.beta2 < 1))
        throw ValueError(fmt::format("Adam: betas ({}, {}) must be in [0, 1)", o.beta1, o.beta2));
    if (!(o.eps >= 0)) throw ValueError(fmt::format("Adam: eps {} must be >= 0", o.eps));
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
    double t;                 // this parameter's own step (PyTorch's state['step'])
    double lr, weight_decay;  // its group's
    std::int64_t n;
};

// Elements [lo, hi) of one float32 parameter: computes reference::adam_update (autograd/
// reference/adam.h), tested equal in tests/nn/test_optim.cpp. The bias
// corrections are per-step constants: lr_t = lr / (1 - b1^t) scales m, and sqrt(v_hat) =
// sqrt(v) / sqrt(1 - b2^t), so an element costs one division and one square root. Its arrays
// are __restrict__ so that the loop vectorises.
template <bool Decoupled>
void adam_elements(float* __restrict__ p, const float* __restrict__ g, float* __restrict__ m, float* __restrict__ v,
                   std::int64_t lo, std::int64_t hi, const reference::AdamStep& a) {
    const float lr_t = static_cast<float>(a.lr / (1 - std::pow(a.beta1, a.t)));
    const float inv_sqrt_c2 = static_cast<float>(1 / std::sqrt(1 - std::pow(a.beta2, a.t)));
    const float b1 = static_cast<float>(a.beta1), b2 = static_cast<float>(a.beta2), eps = static_cast<float>(a.eps);
    const float wd = static_cast<float>(a.weight_decay), decay = static_cast<float>(1 - a.lr * a.weight_decay);
    for (std::int64_t k = lo; k < hi; ++k) {
        const float gk = Decoupled ? g[k] : g[k] + wd * p[k];
        if (Decoupled) p[k] *= decay;  // AdamW: p -= lr wd p, apart from the gradient
        m[k] = b1 * m[k] + (1 - b1) * gk;
        v[k] = b2 * v[k] + (1 - b2) * gk * gk;
        const float sqrt_v_hat = std::sqrt(v[k]) * inv_sqrt_c2;
        p[k] -= lr_t * m[k] / (sqrt_v_hat + eps);
    }
}

// Elements [lo, hi) of one parameter: float64 runs the reference.
template <class T>
void adam_range(const AdamJob<T>& job, std::int64_t lo, std::int64_t hi, reference::AdamStep a) {
    a.t = job.t;
    a.lr = job.lr;
    a.weight_decay = job.weight_decay;
    if constexpr (std::is_same_v<T, double>) {
        for (std::int64_t k = lo; k < hi; ++k) reference::adam_update(job.p[k], job.g[k], job.m[k], job.v[k], a);
    } else if (a.decoupled) {
        adam_elements<true>(job.p, job.g, job.m, job.v, lo, hi, a);
    } else {
        adam_elements<false>(job.p, job.g, job.m, job.v, lo, hi, a);
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
        Tensor grad = param.grad();
        jobs.push_back({param.data<T>(), grad.data<T>(), state("exp_avg", i).template data<T>(),
                        state("exp_avg_sq", i).template data<T>(), static_cast<double>(param_step_count(i)), lr_of(i),
                        weight_decay_of(i), param.numel()});
        first.push_back(first.back() + param.numel());
    }
    if (jobs.empty()) return;
    const reference::AdamStep step{0, options.beta1, options.beta2, options.eps, 0,
                                   0, decoupled_};  // lr, wd, t per job
    autograd::parallel_for(first.back(), 8, [&](std::int64_t begin, std::int64_t end) {
        std::size_t j =
            static_cast<std::size_t>(std::upper_bound(first.begin(), first.end(), begin) - first.begin()) - 1;
        for (; j < jobs.size() && first[j] < end; ++j) {
            const std::int64_t lo = std::max(begin, first[j]) - first[j], hi = std::min(end, first[j + 1]) - first[j];
            adam_range(jobs[j], lo, hi, step);
        }
    });
}

}  // namespace nn::optim
