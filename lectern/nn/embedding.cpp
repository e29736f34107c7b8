#include "lectern/nn/embedding.h"

#include <cmath>

#include <fmt/format.h>

#include "lectern/nn/init.h"

namespace nn {

Embedding::Embedding(std::int64_t vocab, std::int64_t d_model, bool scale_by_sqrt_d, autograd::Generator& gen)
    : scale(scale_by_sqrt_d ? std::sqrt(static_cast<double>(d_model)) : 1.0) {
    if (vocab <= 0 || d_model <= 0)
        throw autograd::ValueError(fmt::format("Embedding: sizes must be positive, got {} x {}", vocab, d_model));
    weight = register_parameter("weight", autograd::zeros({vocab, d_model}));
    init::normal_(weight, 0, 1, gen);
}

// X = [e_i1; ...; e_iT] W_emb (* sqrt(d_model))
Tensor Embedding::forward(const Tensor& ids) const {
    autograd::check_dtype("Embedding", ids, autograd::Dtype::int64, "token ids");
    Tensor x = autograd::index_select(weight, 0, ids);
    return scale == 1.0 ? x : x * scale;
}

}  // namespace nn
