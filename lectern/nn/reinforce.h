#pragma once
// The score-function (REINFORCE) estimator: how hard attention's scores are trained (004 §15.4.7
// says only that hard attention "requires methods such as reinforcement learning"; Williams 1992
// gives the estimator, and Xu et al. 2015, which 004 cites, train their hard attention with it).
// For a location z ~ p_s = softmax(s) and a reward r(z), the gradient of the expected reward is
//   d/ds E_z[r(z)] = sum_z r(z) dp_s(z)/ds = E_z[ r(z) d log p_s(z) / ds ]
//                  = E_z[ (r(z) - b) d log p_s(z) / ds ]      for any baseline b that is not a function of z,
// since E_z[d log p_s(z) / ds] = sum_z dp_s(z)/ds = d(1)/ds = 0. One draw z gives an unbiased estimate
// (r(z) - b) d log p_s(z) / ds; b leaves its mean where it is and shrinks its variance the closer it
// is to E[r]. For the softmax, d log p_s(z) / ds = onehot(z) - p_s, so the estimate for the scores is
//   g = (r(z) - b) (onehot(z) - p_s)                                                  [T] per draw
#include <cstdint>
#include <vector>

#include "lectern/autograd/autograd.h"

namespace nn {

using autograd::Tensor;

// The loss whose gradient is the estimate, for descent on a batch of B draws:
//   L = -(1/B) sum_b (r_b - b) log p(z_b),   so   dL/ds_b = -(1/B) (r_b - b) (onehot(z_b) - p_b)
// Minimising L raises log p(z_b) where the reward beat the baseline and lowers it where it fell
// short. log_prob [B] is Glimpse::log_prob (nn/hard_attention.h); reward [B] is a constant here
// (its graph, if any, is not followed). ShapeError unless both are [B] of one floating dtype.
Tensor reinforce_loss(const Tensor& log_prob, const Tensor& reward, double baseline);

// How much one draw's estimate for one row's scores varies, exactly, by enumerating the T locations:
// with g(z) = (r(z) - b)(onehot(z) - p) and r_bar = sum_z p_z r(z),
//   E_z g(z)_t = p_t (r(t) - r_bar)                  (whatever b: the baseline moves no mean)
//   Var = E_z |g(z)|^2 - |E_z g(z)|^2
//       = sum_z p_z (r(z) - b)^2 (1 - 2 p_z + sum_t p_t^2) - sum_t p_t^2 (r(t) - r_bar)^2
// the variances of the T components summed. p [T] the attention distribution, r [T] the reward
// each location would earn. ValueError unless p and r are as long and not empty.
double score_function_variance(const std::vector<double>& p, const std::vector<double>& r, double baseline);

// The baseline Lectern uses: a moving average of the batches' mean reward,
//   b <- m b + (1 - m) mean_b(r_b)        (b = the first batch's mean before any update)
// read before the batch's update, so that b never depends on the draws it is subtracted from.
class MovingAverageBaseline {
public:
    explicit MovingAverageBaseline(double momentum = 0.9);  // ValueError outside [0, 1)
    double value() const { return value_; }                 // 0 before the first update
    void update(const Tensor& reward);                      // with the batch's rewards [B]

private:
    double momentum_, value_ = 0;
    bool seen_ = false;
};

}  // namespace nn
