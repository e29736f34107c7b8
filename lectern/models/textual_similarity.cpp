#include "lectern/models/textual_similarity.h"

#include <fmt/format.h>

namespace models {

using namespace autograd;

TextualSimilarity::TextualSimilarity(const DecomposableAttentionConfig& config) {
    if (config.classes != 1)
        throw ValueError(
            fmt::format("TextualSimilarity: h ends in one output, a relatedness; config.classes is {}, "
                        "set it to 1",
                        config.classes));
    attention = register_module("attention", std::make_shared<DecomposableAttention>(config));
}

Tensor TextualSimilarity::forward(const Tensor& premise, const Tensor& hypothesis, AlignmentWeights* weights) const {
    const Tensor h = attention->forward(premise, hypothesis, weights);  // h([v_A, v_B])  [B, 1]
    // y_hat = 5 sigmoid(h([v_A, v_B]))                                                     [B]
    return sigmoid(reshape(h, {h.size(0)})) * kMaxRelatedness;
}

}  // namespace models
