#pragma once
#include "lectern/nn/positional_encoding.h"

namespace nn {

// A learned position embedding W_pos [max_len, D] added to the token
// embeddings (002 "Positional Information in Transformers":
// X = [e_i1; ...] W_emb + [e_1; ...; e_T] W_pos). W_pos ~ N(0, 0.02^2).
// Dropout on the sum (0 unless set: the GPT drops out after it itself).
class LearnedPositionalEmbedding : public PositionalEncoding {
public:
    LearnedPositionalEmbedding(std::int64_t max_len, std::int64_t d_model,
                               autograd::Generator& gen = autograd::default_generator());
    using PositionalEncoding::forward;
    // x [B, T, D] at positions [start, start + T) -> dropout(x + W_pos[start : start + T]);
    // ShapeError if start + T > max_len or D differs. Incremental decoding feeds one token at a time.
    Tensor forward(const Tensor& x, std::int64_t start) const override;
    std::int64_t input_width() const override { return weight.size(1); }

    Tensor weight;  // W_pos [max_len, D]
};

}  // namespace nn
