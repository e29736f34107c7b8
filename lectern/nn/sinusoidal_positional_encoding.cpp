#include "lectern/nn/sinusoidal_positional_encoding.h"

#include <cmath>

#include <fmt/format.h>

namespace nn {

SinusoidalPositionalEncoding::SinusoidalPositionalEncoding(std::int64_t d, double p, std::int64_t max_len) {
    if (d <= 0 || max_len <= 0)
        throw autograd::ValueError(
            fmt::format("SinusoidalPositionalEncoding: sizes must be positive, got d {} max_len {}", d, max_len));
    dropout = p;
    table = register_buffer("table", autograd::Tensor::empty({max_len, d}, Dtype::float32));
    recompute_buffers();
}

void SinusoidalPositionalEncoding::recompute_buffers() { write_sinusoidal_code(table); }

void write_sinusoidal_code(Tensor& table) {
    const std::int64_t max_len = table.size(0), d = table.size(1);
    autograd::dispatch_floating(table.dtype(), [&](auto zero) {
        using T = decltype(zero);
        T* out = table.data<T>();
        for (std::int64_t i = 0; i < max_len; ++i)
            for (std::int64_t k = 0; k < d; ++k) {
                std::int64_t two_j = k - k % 2;  // 2j: the pair (2j, 2j+1) shares a frequency
                double angle =
                    static_cast<double>(i) / std::pow(10000.0, static_cast<double>(two_j) / static_cast<double>(d));
                out[i * d + k] = static_cast<T>(k % 2 == 0 ? std::sin(angle) : std::cos(angle));
            }
    });
}

Tensor SinusoidalPositionalEncoding::forward(const Tensor& x, std::int64_t start) const {
    check_input("SinusoidalPositionalEncoding", x, start, table.size(1), table.size(0));
    return drop(x + autograd::narrow(table, 0, start, x.size(1)));  // [T, d] broadcasts over B
}

}  // namespace nn
