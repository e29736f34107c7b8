#pragma once
// Max and average pooling layers over images, NCHW (autograd/ops/pool2d.h; 004 §15.5.6): a
// k x k window every `stride` pixels (stride 0: the kernel, PyTorch's default), no parameters.
#include "lectern/nn/module.h"

namespace nn {

class MaxPool2d : public Module {
public:
    explicit MaxPool2d(std::int64_t kernel, std::int64_t stride = 0);
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }
    std::int64_t kernel, stride;
};

class AvgPool2d : public Module {
public:
    explicit AvgPool2d(std::int64_t kernel, std::int64_t stride = 0);
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }
    std::int64_t kernel, stride;
};

}  // namespace nn
