#pragma once
#include "lectern/nn/module.h"

namespace nn {

// Token embedding: row i of W_emb for token id i (002 "Text Token Embeddings").
// With scale_by_sqrt_d, multiplied by sqrt(d_model) as the Transformer does
// (001 "Embeddings and Softmax"). W ~ N(0, 1), as PyTorch.
class Embedding : public Module {
public:
    Embedding(std::int64_t vocab, std::int64_t d_model, bool scale_by_sqrt_d = false,
              autograd::Generator& gen = autograd::default_generator());
    // ids int64 [...] -> [..., d_model]; IndexError for an id outside [0, vocab).
    Tensor forward(const Tensor& ids) const;
    Tensor operator()(const Tensor& ids) const { return forward(ids); }

    Tensor weight;  // [vocab, d_model]
    double scale;
};

}  // namespace nn
