#include "lectern/nn/depthwise_conv1d.h"

#include <cmath>

#include <fmt/format.h>

#include "lectern/nn/init.h"

namespace nn {

DepthwiseConv1d::DepthwiseConv1d(std::int64_t channels, std::int64_t kernel, autograd::ConvPadding pad,
                                 autograd::Generator& gen)
    : padding(pad) {
    if (channels <= 0 || kernel <= 0)
        throw autograd::ValueError(
            fmt::format("DepthwiseConv1d: channels {} and kernel {} must be positive", channels, kernel));
    const double bound = 1 / std::sqrt(static_cast<double>(kernel));
    weight = register_parameter("weight", autograd::zeros({kernel, channels}));
    init::uniform_(weight, -bound, bound, gen);
    bias = register_parameter("bias", autograd::zeros({channels}));
    init::uniform_(bias, -bound, bound, gen);
}

Tensor DepthwiseConv1d::forward(const Tensor& x) const { return autograd::depthwise_conv1d(x, weight, bias, padding); }

}  // namespace nn
