#include "lectern/nn/dropout.h"

#include <fmt/format.h>

namespace nn {

Dropout::Dropout(double p_) : p(p_) {
    if (!(p >= 0 && p < 1)) throw autograd::ValueError(fmt::format("Dropout: probability {} is outside [0, 1)", p));
}

Tensor Dropout::forward(const Tensor& x) const {
    return autograd::dropout(x, p, is_training(), autograd::default_generator());
}

}  // namespace nn
