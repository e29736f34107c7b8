#include "lectern/nn/reinforce.h"

#include <fmt/format.h>

namespace nn {

using namespace autograd;

Tensor reinforce_loss(const Tensor& log_prob, const Tensor& reward, double baseline) {
    check_floating("reinforce_loss", log_prob);
    check_same_dtype("reinforce_loss", log_prob, reward);
    if (log_prob.dim() != 1 || reward.shape() != log_prob.shape() || log_prob.size(0) == 0)
        throw ShapeError(fmt::format("reinforce_loss: log_prob {} and reward {} must both be [B], B >= 1",
                                     shape_str(log_prob.shape()), shape_str(reward.shape())));
    // L = -(1/B) sum_b (r_b - b) log p(z_b), r a constant
    return -mean((reward.detach() - baseline) * log_prob);
}

MovingAverageBaseline::MovingAverageBaseline(double momentum) : momentum_(momentum) {
    if (!(momentum >= 0 && momentum < 1))
        throw ValueError(fmt::format("MovingAverageBaseline: momentum {} must be in [0, 1)", momentum));
}

void MovingAverageBaseline::update(const Tensor& reward) {
    const double batch_mean = mean(reward.detach()).item();
    value_ = seen_ ? momentum_ * value_ + (1 - momentum_) * batch_mean : batch_mean;
    seen_ = true;
}

}  // namespace nn
