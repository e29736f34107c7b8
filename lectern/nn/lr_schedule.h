#pragma once
// Learning-rate schedules. Set the rate on the optimizer before each step
// (Optimizer::set_lr, which keeps each param group's ratio to the base rate).
// Both count steps from 1, as the paper does: pass the number of the step
// about to be taken (1 for the first).
#include <cstdint>

namespace nn {

// The Transformer's warmup schedule (001's full post, "Optimizer", beyond the excerpt;
// Vaswani et al. eq. 3):
//   rate(step) = factor * d_model^-0.5 * min(step^-0.5, step * warmup^-1.5),
// rising linearly for `warmup` steps, then decaying as 1/sqrt(step). Steps
// count from 1, as in the paper and the 2018 post's NoamOpt (step k at rate(k)); step 0 is
// read as step 1, as the 2022 revision's rate() does.
class WarmupSchedule {
public:
    WarmupSchedule(std::int64_t d_model, std::int64_t warmup, double factor = 1.0);
    double lr(std::int64_t step) const;

    std::int64_t d_model, warmup;
    double factor;
};

// Linear warmup to `peak` over steps 1..warmup (lr(1) = peak / warmup,
// lr(warmup) = peak), then a half cosine from peak at step warmup + 1 down to
// min_lr at step total + 1, one past the last of `total` steps (min_lr after).
class WarmupCosineSchedule {
public:
    WarmupCosineSchedule(double peak, std::int64_t warmup, std::int64_t total, double min_lr = 0.0);
    double lr(std::int64_t step) const;

    double peak;
    std::int64_t warmup, total;
    double min_lr;
};

}  // namespace nn
