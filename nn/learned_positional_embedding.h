#pragma once
#include "nn/module.h"

namespace nn {

// A learned position embedding W_pos [max_len, D] added to the token
// embeddings (002 "Positional Information in Transformers":
// X = [e_i1; ...] W_emb + [e_1; ...; e_T] W_pos). W_pos ~ N(0, 0.02^2).
class LearnedPositionalEmbedding : public Module {
public:
    LearnedPositionalEmbedding(std::int64_t max_len, std::int64_t d_model,
                               autograd::Generator& gen = autograd::default_generator());
    // x [B, T, D] -> x + W_pos[:T]; ShapeError if T > max_len or D differs.
    Tensor forward(const Tensor& x) const;
    // The same for positions [start, start + T): incremental decoding feeds one token at a time.
    Tensor forward(const Tensor& x, std::int64_t start) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }

    Tensor weight;  // W_pos [max_len, D]
};

}  // namespace nn
