#include "lectern/nn/loss.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace nn {

using namespace autograd;

namespace {

// ShapeError unless input and target match (no broadcasting: a [N, 1] input against an [N]
// target would silently pair every input with every target).
void check_pair(const char* op, const Tensor& input, const Tensor& target) {
    check_floating(op, input);
    check_floating(op, target);
    check_same_dtype(op, input, target);
    if (input.shape() != target.shape())
        throw ShapeError(fmt::format("{}: input {} and target {} differ in shape; reshape one to the other's", op,
                                     shape_str(input.shape()), shape_str(target.shape())));
}

Tensor reduce(const Tensor& l, Reduction reduction) {
    switch (reduction) {
        case Reduction::mean:
            return mean(l);
        case Reduction::sum:
            return sum(l);
        case Reduction::none:
            break;
    }
    return l;
}

}  // namespace

// l = (x - y)^2
Tensor mse_loss(const Tensor& input, const Tensor& target, Reduction reduction) {
    check_pair("mse_loss", input, target);
    return reduce(pow(input - target, 2), reduction);
}

// l = |x - y|
Tensor l1_loss(const Tensor& input, const Tensor& target, Reduction reduction) {
    check_pair("l1_loss", input, target);
    return reduce(abs(input - target), reduction);
}

// l = -(y max(ln p, -100) + (1 - y) max(ln(1 - p), -100))
// dl/dp = (p - y) / max(p (1 - p), 1e-12),  dl/dy = max(ln(1 - p), -100) - max(ln p, -100)
Tensor binary_cross_entropy(const Tensor& probs, const Tensor& target, Reduction reduction) {
    check_pair("binary_cross_entropy", probs, target);
    const double inf = std::numeric_limits<double>::infinity();
    Tensor l, log_p, log_q;
    {
        NoGradGuard no_grad;  // the formula is recorded as one op below
        if (sum(logical_or(lt(probs, zeros({}, probs.dtype())), gt(probs, ones({}, probs.dtype())))).item() > 0)
            throw ValueError(
                "binary_cross_entropy: a probability is outside [0, 1]; for logits use "
                "binary_cross_entropy_with_logits");
        log_p = clamp(log(probs), -100, inf);
        log_q = clamp(log(1.0 - probs), -100, inf);
        l = -(target * log_p + (1.0 - target) * log_q);
    }
    l = record("binary_cross_entropy", {probs, target}, l,
               [p = probs.detach(), y = target.detach(), log_p, log_q](const Tensor& dl) {
                   const double no_bound = std::numeric_limits<double>::infinity();
                   return std::vector{dl * (p - y) / clamp(p * (1.0 - p), 1e-12, no_bound), dl * (log_q - log_p)};
               });
    return reduce(l, reduction);
}

// l = softplus(x) - x y
Tensor binary_cross_entropy_with_logits(const Tensor& logits, const Tensor& target, Reduction reduction) {
    check_pair("binary_cross_entropy_with_logits", logits, target);
    return reduce(softplus(logits) - logits * target, reduction);
}

// loss = -(1/count) sum_rows log_probs[row, target[row]]
Tensor nll_loss(const Tensor& log_probs, const Tensor& target, std::int64_t ignore_index) {
    return smoothed_nll(log_probs, target, 1.0, 0.0, -1, ignore_index);
}

LabelSmoothingLoss::LabelSmoothingLoss(std::int64_t v, std::int64_t pad, double eps)
    : vocab(v), padding_idx(pad), smoothing(eps) {
    if (v <= 2) throw ValueError(fmt::format("LabelSmoothingLoss: vocab {} must exceed 2", v));
    if (!(eps >= 0 && eps < 1))
        throw ValueError(fmt::format("LabelSmoothingLoss: smoothing {} is outside [0, 1)", eps));
    if (pad < 0 || pad >= v)
        throw ValueError(fmt::format("LabelSmoothingLoss: padding_idx {} is outside [0, {})", pad, v));
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
