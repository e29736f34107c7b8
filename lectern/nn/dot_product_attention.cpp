#include "lectern/nn/dot_product_attention.h"

#include <fmt/format.h>

#include "lectern/nn/scaled_dot_product_attention.h"

namespace nn {

using namespace autograd;

// Y is both the keys and the values: its gradient gathers both uses.
Tensor dot_product_attention(const Tensor& x, const Tensor& y, const Tensor& mask, bool scaled) {
    if (x.dim() < 2 || y.dim() != x.dim() || x.size(-1) != y.size(-1))
        throw ShapeError(fmt::format("dot_product_attention: x {} and y {} need the same rank >= 2 and the same width",
                                     shape_str(x.shape()), shape_str(y.shape())));
    return scaled_dot_product_attention(x, y, y, mask, scaled);
}

}  // namespace nn
