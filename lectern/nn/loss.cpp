#include "lectern/nn/loss.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace nn {

using namespace autograd;

// loss = -(1/count) sum_rows log_probs[row, target[row]]
Tensor nll_loss(const Tensor& log_probs, const Tensor& target, std::int64_t ignore_index) {
    return smoothed_nll(log_probs, target, 1.0, 0.0, -1, ignore_index);
}

LabelSmoothingLoss::LabelSmoothingLoss(std::int64_t v, std::int64_t pad, double eps)
    : vocab(v), padding_idx(pad), smoothing(eps) {
    if (v <= 2) throw ValueError(fmt::format("LabelSmoothingLoss: vocab {} must exceed 2", v));
    if (!(eps >= 0 && eps < 1)) throw ValueError(fmt::format("LabelSmoothingLoss: smoothing {} is outside [0, 1)", eps));
    if (pad < 0 || pad >= v) throw ValueError(fmt::format("LabelSmoothingLoss: padding_idx {} is outside [0, {})", pad, v));
}

// KL(q || p) = sum q log q - sum q log p, averaged over the non-padding tokens.
Tensor LabelSmoothingLoss::operator()(const Tensor& log_probs, const Tensor& target) const {
    if (log_probs.defined() && log_probs.dim() >= 1 && log_probs.size(-1) != vocab)
        throw ShapeError(fmt::format("LabelSmoothingLoss: log_probs {} must end in vocab = {}",
                                     shape_str(log_probs.shape()), vocab));
    const double on = 1 - smoothing, off = smoothing / static_cast<double>(vocab - 2);
    Tensor nll = smoothed_nll(log_probs, target, on, off, padding_idx, padding_idx);  // -sum q log p, averaged
    // sum q log q, the same for every counted row: q is `on` once and `off` V - 2 times (0 log 0 = 0).
    auto xlogx = [](double v) { return v > 0 ? v * std::log(v) : 0.0; };
    const std::int64_t* t = target.data<std::int64_t>();
    const bool any_counted = std::any_of(t, t + target.numel(), [&](std::int64_t v) { return v != padding_idx; });
    if (!any_counted) return nll;  // 0, with a zero gradient
    return nll + (xlogx(on) + static_cast<double>(vocab - 2) * xlogx(off));
}

}  // namespace nn
