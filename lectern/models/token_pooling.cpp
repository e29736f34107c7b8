#include "lectern/models/token_pooling.h"

#include <fmt/format.h>

namespace models {

using namespace autograd;

namespace {

// The mask as float weights [B, T, 1] of h's dtype: 1 for a token, 0 for padding.
Tensor token_weights(const Tensor& h, const Tensor& mask) {
    check_dtype("pool_tokens", mask, Dtype::int64, "mask");
    const std::int64_t B = h.size(0), T = h.size(1);
    const bool ok = (mask.dim() == 3 && mask.size(0) == B && mask.size(1) == 1 && mask.size(2) == T) ||
                    (mask.dim() == 2 && mask.size(0) == B && mask.size(1) == T);
    if (!ok)
        throw ShapeError(fmt::format("pool_tokens: mask {} must be [{}, 1, {}] or [{}, {}] for tokens {}",
                                     shape_str(mask.shape()), B, T, B, T, shape_str(h.shape())));
    const std::int64_t* m = mask.data<std::int64_t>();
    for (std::int64_t b = 0; b < B; ++b) {
        std::int64_t count = 0;
        for (std::int64_t t = 0; t < T; ++t) count += m[b * T + t] != 0;
        if (count == 0)
            throw ValueError(fmt::format("pool_tokens: sequence {} is all padding: no token to average", b));
    }
    Tensor w = Tensor::empty({B, T, 1}, Dtype::int64);
    std::int64_t* q = w.data<std::int64_t>();
    for (std::int64_t i = 0; i < B * T; ++i) q[i] = m[i] != 0;
    return w.to(h.dtype());
}

}  // namespace

Tensor pool_tokens(const Tensor& h, Pooling pooling, const Tensor& mask) {
    check_floating("pool_tokens", h);
    if (h.dim() != 3 || h.size(1) == 0)
        throw ShapeError(fmt::format("pool_tokens: tokens {} must be [B, T, D] with T > 0", shape_str(h.shape())));
    if (pooling == Pooling::cls) return select(h, 1, 0);  // h_0 [B, D]
    if (!mask.defined()) return mean(h, 1);               // (1/T) sum_t h_t
    Tensor m = token_weights(h, mask);                    // m_t [B, T, 1]
    return sum(h * m, 1) / sum(m, 1);                     // sum_t m_t h_t / sum_t m_t
}

std::string pooling_name(Pooling pooling) { return pooling == Pooling::cls ? "cls" : "mean"; }

Pooling parse_pooling(const std::string& name) {
    if (name == "cls") return Pooling::cls;
    if (name == "mean") return Pooling::mean;
    throw ValueError(fmt::format("pooling '{}': expected cls or mean", name));
}

}  // namespace models
