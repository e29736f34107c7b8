#include "lectern/nn/learned_positional_embedding.h"

#include <fmt/format.h>

#include "lectern/nn/init.h"

namespace nn {

LearnedPositionalEmbedding::LearnedPositionalEmbedding(std::int64_t max_len, std::int64_t d, autograd::Generator& gen) {
    if (max_len <= 0 || d <= 0)
        throw autograd::ValueError(
            fmt::format("LearnedPositionalEmbedding: sizes must be positive, got {} x {}", max_len, d));
    weight = register_parameter("weight", autograd::zeros({max_len, d}));
    init::normal_(weight, 0, 0.02, gen);
}

Tensor LearnedPositionalEmbedding::forward(const Tensor& x, std::int64_t start) const {
    check_input("LearnedPositionalEmbedding", x, start, weight.size(1), weight.size(0));
    return drop(x + autograd::narrow(weight, 0, start, x.size(1)));
}

}  // namespace nn
