#include "lectern/nn/scaled_dot_product_attention.h"

#include <cmath>

#include <fmt/format.h>

namespace nn {

using namespace autograd;

Tensor attention_weights(const Tensor& q, const Tensor& k, const Tensor& mask, bool scaled) {
    if (q.dim() < 2 || k.dim() != q.dim() || q.size(-1) != k.size(-1))
        throw ShapeError(fmt::format("attention: q {} and k {} need the same rank >= 2 and the same d_k",
                                     shape_str(q.shape()), shape_str(k.shape())));
    Tensor scores = matmul(q, k, false, true);  // Q K^T: [..., Tq, Tk]
    // Without a mask every key may be attended to: a mask of ones of rank 1
    // keeps the one fused scale-mask-softmax pass.
    Tensor keep = mask.defined() ? mask : ones({1}, Dtype::int64);
    check_dtype("attention", keep, Dtype::int64, "mask");
    if (keep.dim() > scores.dim() || broadcast_shapes("attention", keep.shape(), scores.shape()) != scores.shape())
        throw ShapeError(fmt::format("attention: mask {} does not broadcast to the scores {}", shape_str(keep.shape()),
                                     shape_str(scores.shape())));
    const double scale = scaled ? 1 / std::sqrt(static_cast<double>(q.size(-1))) : 1.0;  // 1 / sqrt(d_k), or none
    return masked_softmax(scores, keep, scale);
}

Tensor scaled_dot_product_attention(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask,
                                    bool scaled) {
    if (v.dim() != k.dim() || v.size(-2) != k.size(-2))
        throw ShapeError(
            fmt::format("attention: v {} needs one row per key of k {}", shape_str(v.shape()), shape_str(k.shape())));
    return matmul(attention_weights(q, k, mask, scaled), v);
}

}  // namespace nn
