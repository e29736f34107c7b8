#pragma once
// A 2-D convolution layer over images, NCHW (autograd/ops/conv2d.h; the CNN of 004 §15.5.6):
// x [B, in, H, W] -> [B, out, Ho, Wo],
//   y[o, i, j] = b[o] + sum_{c, u, v} W[o, c, u, v] x[c, i s + u - p, j s + v - p].
#include "lectern/autograd/random.h"
#include "lectern/nn/module.h"

namespace nn {

class Conv2d : public Module {
public:
    // W, b ~ U(-1/sqrt(in k^2), 1/sqrt(in k^2)), as PyTorch's Conv2d; a k x k kernel.
    Conv2d(std::int64_t in_channels, std::int64_t out_channels, std::int64_t kernel, std::int64_t stride = 1,
           std::int64_t padding = 0, autograd::Generator& gen = autograd::default_generator());
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }

    Tensor weight;  // [out, in, k, k]
    Tensor bias;    // [out]
    std::int64_t stride, padding;
};

}  // namespace nn
