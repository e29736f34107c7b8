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

double score_function_variance(const std::vector<double>& p, const std::vector<double>& r, double baseline) {
    if (p.empty() || p.size() != r.size())
        throw ValueError(
            fmt::format("score_function_variance: {} probabilities and {} rewards; give one reward per "
                        "location",
                        p.size(), r.size()));
    double sum_p2 = 0, r_bar = 0;
    for (std::size_t t = 0; t < p.size(); ++t) sum_p2 += p[t] * p[t], r_bar += p[t] * r[t];
    // E|g|^2 = sum_z p_z (r_z - b)^2 |onehot(z) - p|^2,  |onehot(z) - p|^2 = 1 - 2 p_z + sum_t p_t^2
    // |E g|^2 = sum_t (p_t (r_t - r_bar))^2
    double second = 0, mean2 = 0;
    for (std::size_t z = 0; z < p.size(); ++z) {
        second += p[z] * (r[z] - baseline) * (r[z] - baseline) * (1 - 2 * p[z] + sum_p2);
        mean2 += (p[z] * (r[z] - r_bar)) * (p[z] * (r[z] - r_bar));
    }
    return second - mean2;
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
