#pragma once
// The semantic-textual-similarity variant of attention for entailment (004 §15.4.6, after eq.
// 15.53): the same alignment, comparison and sums (models::DecomposableAttention, eq. 15.46-15.52),
// but h ends in one output, read as a relatedness on the STS Benchmark's scale from 0 (unrelated)
// to 5 (the same meaning) instead of logits of three classes:
//   y_hat = 5 sigmoid(h([v_A, v_B]))                         in (0, 5)
// and trained by squared error (y_hat - y)^2 against a graded relatedness y (nn::mse_loss). The
// sigmoid keeps every prediction on the scale; its slope 5 s (1 - s) is largest, 5/4, mid-scale.
#include <cstdint>
#include <memory>

#include "lectern/models/decomposable_attention.h"

namespace models {

constexpr double kMaxRelatedness = 5;  // the top of the STS Benchmark's scale

class TextualSimilarity : public nn::Module {
public:
    // `config` as for DecomposableAttention; its `classes` must be 1, h's one output (ValueError otherwise).
    explicit TextualSimilarity(const DecomposableAttentionConfig& config);

    // premise int64 [B, m], hypothesis int64 [B, n] -> relatedness [B], each in (0, 5); errors and
    // `weights` as DecomposableAttention::forward.
    Tensor forward(const Tensor& premise, const Tensor& hypothesis, AlignmentWeights* weights = nullptr) const;
    Tensor operator()(const Tensor& premise, const Tensor& hypothesis) const { return forward(premise, hypothesis); }

    std::shared_ptr<DecomposableAttention> attention;  // eq. 15.46-15.53 with h: R^{2H} -> R^1
};

}  // namespace models
