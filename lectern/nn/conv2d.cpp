#include "lectern/nn/conv2d.h"

#include <cmath>

#include <fmt/format.h>

#include "lectern/autograd/ops/conv2d.h"
#include "lectern/nn/init.h"

namespace nn {

Conv2d::Conv2d(std::int64_t in, std::int64_t out, std::int64_t kernel, std::int64_t stride_, std::int64_t padding_,
               autograd::Generator& gen)
    : stride(stride_), padding(padding_) {
    if (in <= 0 || out <= 0 || kernel <= 0 || kernel > (std::int64_t{1} << 16) || stride_ <= 0 || padding_ < 0 ||
        padding_ >= kernel)
        throw autograd::ValueError(
            fmt::format("Conv2d: needs positive channels {} -> {}, 0 < kernel {} <= 65536, "
                        "stride {} > 0 and 0 <= padding {} < kernel",
                        in, out, kernel, stride_, padding_));
    const double bound = 1 / std::sqrt(static_cast<double>(in * kernel * kernel));
    weight = register_parameter("weight", autograd::zeros({out, in, kernel, kernel}));
    init::uniform_(weight, -bound, bound, gen);
    bias = register_parameter("bias", autograd::zeros({out}));
    init::uniform_(bias, -bound, bound, gen);
}

Tensor Conv2d::forward(const Tensor& x) const { return autograd::conv2d(x, weight, bias, stride, padding); }

}  // namespace nn
