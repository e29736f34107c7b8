#include "lectern/nn/positional_encoding.h"

#include <fmt/format.h>

namespace nn {

void PositionalEncoding::check_input(const char* who, const Tensor& x, std::int64_t start, std::int64_t width,
                                     std::int64_t max_len) {
    autograd::check_floating(who, x);
    if (x.dim() != 3 || x.size(2) != width || start < 0 || start + x.size(1) > max_len)
        throw autograd::ShapeError(
            fmt::format("{}: input {} at position {} needs [B, T, {}] with start + T <= max_len {}", who,
                        autograd::shape_str(x.shape()), start, width, max_len));
}

Tensor PositionalEncoding::drop(const Tensor& y) const {
    return autograd::dropout(y, dropout, is_training(), autograd::default_generator());
}

}  // namespace nn
