#pragma once
// Losses. Each returns a scalar averaged over the tokens that count (not the
// ignored / padding ones).
#include <cstdint>

#include "lectern/autograd/autograd.h"

namespace nn {

using autograd::Tensor;

// Cross-entropy from logits is the fused op autograd::cross_entropy.

// Negative log-likelihood of log-probabilities [..., C] (e.g. the Generator's
// log_softmax): mean over non-ignored rows of -log_probs[target].
Tensor nll_loss(const Tensor& log_probs, const Tensor& target, std::int64_t ignore_index = -100);

// The Annotated Transformer's LabelSmoothing (001's full post, beyond the excerpt), as the KL
// divergence from the smoothed target distribution q to the model's p:
//   q[target] = 1 - eps, q[padding_idx] = 0, q[other] = eps / (V - 2),
//   loss = mean over tokens whose target is not padding of sum_c q_c (log q_c - log p_c).
// KL = cross-entropy(q, p) minus q's entropy, a constant: the gradients are
// those of the smoothed cross-entropy. The original sums over tokens and
// divides by the token count outside; here the mean is taken inside.
class LabelSmoothingLoss {
public:
    LabelSmoothingLoss(std::int64_t vocab, std::int64_t padding_idx, double smoothing);
    // log_probs [..., V], target int64 [...]
    Tensor operator()(const Tensor& log_probs, const Tensor& target) const;

    std::int64_t vocab, padding_idx;
    double smoothing;
};

}  // namespace nn
