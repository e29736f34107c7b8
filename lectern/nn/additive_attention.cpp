#include "lectern/nn/additive_attention.h"

#include <cmath>

#include <fmt/format.h>

#include "lectern/nn/init.h"

namespace nn {

using namespace autograd;

Tensor additive_attention_weights(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask) {
    if (q.dim() < 2 || k.dim() != q.dim() || q.size(-1) != k.size(-1))
        throw ShapeError(fmt::format("additive attention: q {} and k {} need the same rank >= 2 and the same d_a",
                                     shape_str(q.shape()), shape_str(k.shape())));
    if (v.dim() < 1 || v.size(-1) != q.size(-1))
        throw ShapeError(
            fmt::format("additive attention: v {} must end in d_a = {}", shape_str(v.shape()), q.size(-1)));
    // W_q q_i + W_k k_j for every pair: [..., Tq, 1, d_a] + [..., 1, Tk, d_a] -> [..., Tq, Tk, d_a].
    Tensor hidden = tanh(unsqueeze(q, -2) + unsqueeze(k, -3));
    Tensor scores = sum(hidden * v, -1);  // e_ij = v^T tanh(...): [..., Tq, Tk]
    Tensor keep = mask.defined() ? mask : ones({1}, Dtype::int64);
    check_dtype("additive attention", keep, Dtype::int64, "mask");
    if (keep.dim() > scores.dim() ||
        broadcast_shapes("additive attention", keep.shape(), scores.shape()) != scores.shape())
        throw ShapeError(fmt::format("additive attention: mask {} does not broadcast to the scores {}",
                                     shape_str(keep.shape()), shape_str(scores.shape())));
    return masked_softmax(scores, keep, 1.0);
}

AdditiveAttention::AdditiveAttention(std::int64_t d_query, std::int64_t d_key, std::int64_t d_a, Generator& gen) {
    if (d_query <= 0 || d_key <= 0 || d_a <= 0)
        throw ValueError(fmt::format("AdditiveAttention: widths must be positive, got d_query {}, d_key {}, d_a {}",
                                     d_query, d_key, d_a));
    w_q = register_parameter("w_q", zeros({d_a, d_query}));
    init::uniform_(w_q, -1 / std::sqrt(static_cast<double>(d_query)), 1 / std::sqrt(static_cast<double>(d_query)), gen);
    w_k = register_parameter("w_k", zeros({d_a, d_key}));
    init::uniform_(w_k, -1 / std::sqrt(static_cast<double>(d_key)), 1 / std::sqrt(static_cast<double>(d_key)), gen);
    v = register_parameter("v", zeros({d_a}));
    init::uniform_(v, -1 / std::sqrt(static_cast<double>(d_a)), 1 / std::sqrt(static_cast<double>(d_a)), gen);
}

Tensor AdditiveAttention::weights(const Tensor& query, const Tensor& key, const Tensor& mask) const {
    return additive_attention_weights(linear(query, w_q), linear(key, w_k), v, mask);
}

Tensor AdditiveAttention::forward(const Tensor& query, const Tensor& key, const Tensor& value,
                                  const Tensor& mask) const {
    if (value.dim() != key.dim() || value.size(-2) != key.size(-2))
        throw ShapeError(fmt::format("additive attention: value {} needs one row per key of {}",
                                     shape_str(value.shape()), shape_str(key.shape())));
    return matmul(weights(query, key, mask), value);
}

}  // namespace nn
