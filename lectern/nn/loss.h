#pragma once
// Losses. Each returns a scalar averaged over the tokens that count (not the
// ignored / padding ones).
#include <cstdint>

#include "lectern/autograd/autograd.h"

namespace nn {

using autograd::Tensor;

// Cross-entropy from logits is the fused op autograd::cross_entropy.

// How a loss of one value per element is reduced (PyTorch's reduction="mean" | "sum" | "none").
enum class Reduction { mean, sum, none };

// Elementwise losses of an input against a target of the same shape (ShapeError otherwise),
// both floating of one dtype, then reduced. The target gets its gradient too, as in PyTorch.
// l = (x - y)^2;  dl/dx = 2 (x - y)
Tensor mse_loss(const Tensor& input, const Tensor& target, Reduction reduction = Reduction::mean);
// l = |x - y|;  dl/dx = sign(x - y), 0 where x = y
Tensor l1_loss(const Tensor& input, const Tensor& target, Reduction reduction = Reduction::mean);
// Probabilities p in [0, 1] (ValueError otherwise) against targets y in [0, 1]:
// l = -(y ln p + (1 - y) ln(1 - p)), each ln at least -100 as PyTorch clamps it, so that p = 0 or 1
// costs 100, not infinity;  dl/dp = (p - y) / max(p (1 - p), 1e-12),  dl/dy = ln(1 - p) - ln p
Tensor binary_cross_entropy(const Tensor& probs, const Tensor& target, Reduction reduction = Reduction::mean);
// The same from logits x, p = sigmoid(x), without forming p (stable for any x):
// l = ln(1 + e^x) - x y = softplus(x) - x y;  dl/dx = sigmoid(x) - y,  dl/dy = -x
Tensor binary_cross_entropy_with_logits(const Tensor& logits, const Tensor& target,
                                        Reduction reduction = Reduction::mean);

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
