#include "lectern/nn/lr_schedule.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "lectern/autograd/errors.h"

namespace nn {

WarmupSchedule::WarmupSchedule(std::int64_t d, std::int64_t w, double f) : d_model(d), warmup(w), factor(f) {
    if (d <= 0 || w <= 0 || !(f > 0))
        throw autograd::ValueError(
            fmt::format("WarmupSchedule: d_model {}, warmup {} and factor {} must be positive", d, w, f));
}

double WarmupSchedule::lr(std::int64_t step) const {
    double s = static_cast<double>(std::max<std::int64_t>(step, 1));
    return factor * std::pow(static_cast<double>(d_model), -0.5) *
           std::min(std::pow(s, -0.5), s * std::pow(static_cast<double>(warmup), -1.5));
}

WarmupCosineSchedule::WarmupCosineSchedule(double p, std::int64_t w, std::int64_t t, double m)
    : peak(p), warmup(w), total(t), min_lr(m) {
    if (!(p > 0) || w < 0 || t <= w || !(m >= 0 && m <= p))
        throw autograd::ValueError(fmt::format(
            "WarmupCosineSchedule: need peak > 0, 0 <= warmup < total, 0 <= min_lr <= peak; got {}, {}, {}, {}", p, w,
            t, m));
}

double WarmupCosineSchedule::lr(std::int64_t step) const {
    step = std::max<std::int64_t>(step, 1);
    if (step <= warmup) return peak * static_cast<double>(step) / static_cast<double>(warmup);
    if (step > total) return min_lr;
    double progress = static_cast<double>(step - 1 - warmup) / static_cast<double>(total - warmup);
    return min_lr + (peak - min_lr) * 0.5 * (1 + std::cos(std::numbers::pi * progress));
}

}  // namespace nn
