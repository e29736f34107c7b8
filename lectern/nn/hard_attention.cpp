#include "lectern/nn/hard_attention.h"

#include <fmt/format.h>

namespace nn {

using namespace autograd;

Tensor sample_locations(const Tensor& scores, Generator& gen) {
    if (scores.dim() != 2)
        throw ShapeError(fmt::format("sample_locations: scores must be [B, T], got {}", shape_str(scores.shape())));
    NoGradGuard no_grad;
    // z_b ~ Categorical(p_b), p_b = softmax(s_b): one draw per row                                  [B]
    return reshape(multinomial(softmax(scores.detach(), -1), 1, true, gen), {scores.size(0)});
}

Glimpse glimpse(const Tensor& scores, const Tensor& values, const Tensor& chosen) {
    check_floating("glimpse", scores);
    check_dtype("glimpse", chosen, Dtype::int64, "chosen");
    if (scores.dim() != 2 || values.dim() != 3 || chosen.dim() != 1 || values.size(0) != scores.size(0) ||
        values.size(1) != scores.size(1) || chosen.size(0) != scores.size(0))
        throw ShapeError(fmt::format("glimpse: scores {}, values {} and chosen {} must be [B, T], [B, T, D] and [B]",
                                     shape_str(scores.shape()), shape_str(values.shape()), shape_str(chosen.shape())));
    check_same_dtype("glimpse", scores, values);
    const std::int64_t B = scores.size(0), T = scores.size(1), D = values.size(2);
    const std::int64_t* z = chosen.data<std::int64_t>();
    for (std::int64_t b = 0; b < B; ++b)
        if (z[b] < 0 || z[b] >= T)
            throw IndexError(fmt::format("glimpse: chosen[{}] = {} is not a location in [0, {})", b, z[b], T));
    // c_b = v_{b, z_b}: gather along the locations with z_b repeated over the D features     [B, D]
    Tensor index = Tensor::empty({B, 1, D}, Dtype::int64);
    for (std::int64_t b = 0; b < B; ++b)
        for (std::int64_t d = 0; d < D; ++d) index.data<std::int64_t>()[b * D + d] = z[b];
    Tensor value = reshape(gather(values, 1, index), {B, D});
    // log p(z_b) = log_softmax(s_b)_{z_b}                                                       [B]
    Tensor log_prob = reshape(gather(log_softmax(scores, -1), 1, reshape(chosen, {B, 1})), {B});
    return {chosen, value, log_prob};
}

Glimpse hard_attention(const Tensor& scores, const Tensor& values, Generator& gen) {
    return glimpse(scores, values, sample_locations(scores, gen));
}

}  // namespace nn
