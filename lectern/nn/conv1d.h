#pragma once
// A 1-D convolution layer over a sequence, channels last (autograd/ops/conv1d.h; 004 §15.5.5
// Table 15.1's convolutional layer): x [B, T, in] -> [B, T, out],
//   y_t = b + sum_{j < k} W_j x_{t + j r - left},
// causal (left = (k - 1) r: y_t sees x_t and the (k - 1) r positions before it) or same.
#include "lectern/autograd/ops/conv1d.h"
#include "lectern/nn/module.h"

namespace nn {

class Conv1d : public Module {
public:
    // W, b ~ U(-1/sqrt(in k), 1/sqrt(in k)), as PyTorch's Conv1d.
    Conv1d(std::int64_t in_channels, std::int64_t out_channels, std::int64_t kernel, std::int64_t dilation = 1,
           autograd::ConvPadding padding = autograd::ConvPadding::causal,
           autograd::Generator& gen = autograd::default_generator());
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }

    Tensor weight;  // [out, k, in]
    Tensor bias;    // [out]
    std::int64_t dilation;
    autograd::ConvPadding padding;
};

}  // namespace nn
