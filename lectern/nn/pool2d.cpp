#include "lectern/nn/pool2d.h"

#include <fmt/format.h>

#include "lectern/autograd/ops/pool2d.h"

namespace nn {
namespace {

void check_window(const char* layer, std::int64_t kernel, std::int64_t stride) {
    if (kernel <= 0 || stride < 0)
        throw autograd::ValueError(
            fmt::format("{}: needs kernel > 0 and stride >= 0 (0: the kernel), got kernel {}, stride {}", layer, kernel,
                        stride));
}

}  // namespace

MaxPool2d::MaxPool2d(std::int64_t k, std::int64_t s) : kernel(k), stride(s) { check_window("MaxPool2d", k, s); }
Tensor MaxPool2d::forward(const Tensor& x) const { return autograd::max_pool2d(x, kernel, stride); }

AvgPool2d::AvgPool2d(std::int64_t k, std::int64_t s) : kernel(k), stride(s) { check_window("AvgPool2d", k, s); }
Tensor AvgPool2d::forward(const Tensor& x) const { return autograd::avg_pool2d(x, kernel, stride); }

}  // namespace nn
