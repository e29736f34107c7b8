#include "lectern/nn/no_positional_encoding.h"

#include <fmt/format.h>

namespace nn {

NoPositionalEncoding::NoPositionalEncoding(std::int64_t d, double p) : d_model(d) {
    if (d <= 0) throw autograd::ValueError(fmt::format("NoPositionalEncoding: d_model must be positive, got {}", d));
    dropout = p;
}

// No table, so no longest sequence: any start and T.
Tensor NoPositionalEncoding::forward(const Tensor& x, std::int64_t start) const {
    check_input("NoPositionalEncoding", x, start, d_model, start + (x.dim() == 3 ? x.size(1) : 0));
    return drop(x);
}

}  // namespace nn
