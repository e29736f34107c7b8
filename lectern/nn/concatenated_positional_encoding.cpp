#include "lectern/nn/concatenated_positional_encoding.h"

#include <fmt/format.h>

#include "lectern/nn/sinusoidal_positional_encoding.h"

namespace nn {

ConcatenatedPositionalEncoding::ConcatenatedPositionalEncoding(std::int64_t d, std::int64_t k, double p,
                                                               std::int64_t max_len)
    : d_model(d) {
    if (d <= 0 || max_len <= 0 || k <= 0 || k >= d || k % 2 != 0)
        throw autograd::ValueError(fmt::format(
            "ConcatenatedPositionalEncoding: needs 0 < K < d_model with K even and max_len > 0, got K {} d_model {} "
            "max_len {}",
            k, d, max_len));
    dropout = p;
    table = register_buffer("table", autograd::Tensor::empty({max_len, k}, autograd::Dtype::float32));
    recompute_buffers();
}

void ConcatenatedPositionalEncoding::recompute_buffers() { write_sinusoidal_code(table); }

Tensor ConcatenatedPositionalEncoding::forward(const Tensor& x, std::int64_t start) const {
    check_input("ConcatenatedPositionalEncoding", x, start, input_width(), table.size(0));
    const std::int64_t B = x.size(0), T = x.size(1), K = table.size(1);
    Tensor p = autograd::broadcast_to(autograd::narrow(table, 0, start, T), {B, T, K});
    return drop(autograd::concat({x, p}, 2));
}

}  // namespace nn
