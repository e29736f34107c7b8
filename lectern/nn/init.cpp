#include "lectern/nn/init.h"

#include <cmath>

#include <fmt/format.h>

namespace nn::init {

using namespace autograd;

namespace {
thread_local bool t_skip_init = false;

// Overwrites t's values with `values` (same shape and dtype), outside the graph.
void assign(Tensor& t, const Tensor& values) {
    NoGradGuard no_grad;
    t.copy_(values);
}
}  // namespace

SkipInitGuard::SkipInitGuard() : previous_(t_skip_init) { t_skip_init = true; }
SkipInitGuard::~SkipInitGuard() { t_skip_init = previous_; }
bool skipping_init() { return t_skip_init; }

void xavier_uniform_(Tensor& t, Generator& gen, double gain) {
    check_floating("xavier_uniform_", t);
    if (t.dim() < 2)
        throw ValueError(
            fmt::format("xavier_uniform_: needs a tensor of at least 2 dims, got {}", shape_str(t.shape())));
    if (t_skip_init) return;
    std::int64_t receptive = t.numel() / (t.size(0) * t.size(1));
    double fan_out = static_cast<double>(t.size(0) * receptive), fan_in = static_cast<double>(t.size(1) * receptive);
    double a = gain * std::sqrt(6.0 / (fan_in + fan_out));
    uniform_(t, -a, a, gen);
}

void normal_(Tensor& t, double mean, double std, Generator& gen) {
    check_floating("normal_", t);
    if (t_skip_init) return;
    assign(t, add(mul(randn(t.shape(), gen, t.dtype()), std), mean));
}

void uniform_(Tensor& t, double low, double high, Generator& gen) {
    check_floating("uniform_", t);
    if (t_skip_init) return;
    assign(t, uniform(t.shape(), low, high, gen, t.dtype()));
}

void zeros_(Tensor& t) {
    NoGradGuard no_grad;
    t.fill_(0);
}

void ones_(Tensor& t) {
    NoGradGuard no_grad;
    t.fill_(1);
}

}  // namespace nn::init
