#include "lectern/nn/sequential.h"

#include <fmt/format.h>

namespace nn {

Tensor Sequential::forward(const Tensor& x) const {
    Tensor h = x;
    for (const Step& step : steps_) h = step.apply(h);
    return h;
}

Module& Sequential::operator[](std::size_t i) const {
    if (i >= steps_.size())
        throw autograd::IndexError(fmt::format("Sequential: step {} of a Sequential of {}", i, steps_.size()));
    return *steps_[i].module;
}

}  // namespace nn
