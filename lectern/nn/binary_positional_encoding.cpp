#include "lectern/nn/binary_positional_encoding.h"

#include <fmt/format.h>

namespace nn {

BinaryPositionalEncoding::BinaryPositionalEncoding(std::int64_t d, double p, std::int64_t max_len) {
    if (d <= 0 || max_len <= 0)
        throw autograd::ValueError(
            fmt::format("BinaryPositionalEncoding: sizes must be positive, got d {} max_len {}", d, max_len));
    dropout = p;
    table = register_buffer("table", autograd::zeros({max_len, d}));
    float* out = table.data<float>();
    for (std::int64_t i = 0; i < max_len; ++i)
        for (std::int64_t k = 0; k < d && k < 63; ++k) out[i * d + k] = static_cast<float>((i >> k) & 1);
}

Tensor BinaryPositionalEncoding::forward(const Tensor& x, std::int64_t start) const {
    check_input("BinaryPositionalEncoding", x, start, table.size(1), table.size(0));
    return drop(x + autograd::narrow(table, 0, start, x.size(1)));  // [T, d] broadcasts over B
}

}  // namespace nn
