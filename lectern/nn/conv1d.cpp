#include "lectern/nn/conv1d.h"

#include <cmath>

#include <fmt/format.h>

#include "lectern/nn/init.h"

namespace nn {

Conv1d::Conv1d(std::int64_t in, std::int64_t out, std::int64_t kernel, std::int64_t r, autograd::ConvPadding pad,
               autograd::Generator& gen)
    : dilation(r), padding(pad) {
    if (in <= 0 || out <= 0 || kernel <= 0 || r <= 0)
        throw autograd::ValueError(
            fmt::format("Conv1d: channels {} -> {}, kernel {} and dilation {} must be positive", in, out, kernel, r));
    // The causal padding (k - 1) r is counted in int64.
    if (std::int64_t span = 0; __builtin_mul_overflow(kernel - 1, r, &span))
        throw autograd::ValueError(
            fmt::format("Conv1d: kernel {} with dilation {} spans more positions than int64 counts", kernel, r));
    const double bound = 1 / std::sqrt(static_cast<double>(in * kernel));
    weight = register_parameter("weight", autograd::zeros({out, kernel, in}));
    init::uniform_(weight, -bound, bound, gen);
    bias = register_parameter("bias", autograd::zeros({out}));
    init::uniform_(bias, -bound, bound, gen);
}

Tensor Conv1d::forward(const Tensor& x) const { return autograd::conv1d(x, weight, bias, dilation, padding); }

}  // namespace nn
