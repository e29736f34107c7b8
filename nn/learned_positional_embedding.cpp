#include "nn/learned_positional_embedding.h"

#include <fmt/format.h>

#include "nn/init.h"

namespace nn {

LearnedPositionalEmbedding::LearnedPositionalEmbedding(std::int64_t max_len, std::int64_t d, autograd::Generator& gen) {
    if (max_len <= 0 || d <= 0)
        throw autograd::ValueError(fmt::format("LearnedPositionalEmbedding: sizes must be positive, got {} x {}", max_len, d));
    weight = register_parameter("weight", autograd::zeros({max_len, d}));
    init::normal_(weight, 0, 0.02, gen);
}

Tensor LearnedPositionalEmbedding::forward(const Tensor& x) const { return forward(x, 0); }

Tensor LearnedPositionalEmbedding::forward(const Tensor& x, std::int64_t start) const {
    autograd::check_floating("LearnedPositionalEmbedding", x);
    if (x.dim() != 3 || x.size(2) != weight.size(1) || start < 0 || start + x.size(1) > weight.size(0))
        throw autograd::ShapeError(fmt::format(
            "LearnedPositionalEmbedding: input {} at position {} needs [B, T, {}] with start + T <= max_len {}",
            autograd::shape_str(x.shape()), start, weight.size(1), weight.size(0)));
    return x + autograd::narrow(weight, 0, start, x.size(1));
}

}  // namespace nn
