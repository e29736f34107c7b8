#include "nn/loss.h"

#include <cmath>

#include <fmt/format.h>

namespace nn {

using namespace autograd;

namespace {

// A target distribution q over the classes for each row, as a constant tensor
// like log_probs; rows whose target is `ignore` are all zero.
struct TargetDistribution {
    Tensor q;                 // [..., C]
    Tensor unused;            // int64 [..., C]: 1 where q = 0 (those log-probabilities are not read)
    std::int64_t count = 0;   // rows that count
    double q_log_q = 0;       // sum of q log q over every row (0 log 0 = 0)

    // sum q log p, reading log p only where q > 0: a -inf log-probability of a
    // class (or row) with no weight must not turn 0 * -inf into NaN.
    Tensor weighted_sum(const Tensor& log_probs) const { return sum(q * masked_fill(log_probs, unused, 0.0)); }
};

// q[target] = on, q[c] = off for the other classes except `zero_class` (0 there).
TargetDistribution target_distribution(const char* op, const Tensor& log_probs, const Tensor& target,
                                       std::int64_t ignore, double on, double off, std::int64_t zero_class) {
    check_floating(op, log_probs);
    check_dtype(op, target, Dtype::int64, "target");
    if (log_probs.dim() < 1) throw ShapeError(fmt::format("{}: log_probs must be [..., C], got []", op));
    Shape rows(log_probs.shape().begin(), log_probs.shape().end() - 1);
    if (target.shape() != rows)
        throw ShapeError(fmt::format("{}: target {} must have the shape of log_probs {} without the last dim", op,
                                     shape_str(target.shape()), shape_str(log_probs.shape())));
    const std::int64_t C = log_probs.size(-1);
    const std::int64_t* y = target.data<std::int64_t>();
    std::vector<double> q(static_cast<std::size_t>(log_probs.numel()), 0.0);
    std::vector<double> unused(q.size(), 1.0);
    TargetDistribution d;
    auto xlogx = [](double v) { return v > 0 ? v * std::log(v) : 0.0; };
    for (std::int64_t r = 0; r < target.numel(); ++r) {
        if (y[r] == ignore) continue;
        if (y[r] < 0 || y[r] >= C)
            throw IndexError(fmt::format("{}: target {} at position {} is outside [0, {})", op, y[r], r, C));
        ++d.count;
        for (std::int64_t c = 0; c < C; ++c) {
            double v = c == y[r] ? on : c == zero_class ? 0.0 : off;
            q[static_cast<std::size_t>(r * C + c)] = v;
            unused[static_cast<std::size_t>(r * C + c)] = v == 0;
            d.q_log_q += xlogx(v);
        }
    }
    d.q = tensor(q, log_probs.shape(), log_probs.dtype());
    d.unused = tensor(unused, log_probs.shape(), Dtype::int64);
    return d;
}

}  // namespace

// loss = -(1/count) sum_rows log_probs[row, target[row]]
Tensor nll_loss(const Tensor& log_probs, const Tensor& target, std::int64_t ignore_index) {
    TargetDistribution d = target_distribution("nll_loss", log_probs, target, ignore_index, 1.0, 0.0, -1);
    if (d.count == 0) return d.weighted_sum(log_probs);  // nothing counts: 0, with a zero gradient
    return -d.weighted_sum(log_probs) / static_cast<double>(d.count);
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
    TargetDistribution d = target_distribution("LabelSmoothingLoss", log_probs, target, padding_idx, 1 - smoothing,
                                               smoothing / static_cast<double>(vocab - 2), padding_idx);
    if (d.count == 0) return d.weighted_sum(log_probs);  // 0, with a zero gradient
    return (d.q_log_q - d.weighted_sum(log_probs)) / static_cast<double>(d.count);
}

}  // namespace nn
