#pragma once
// A depthwise 1-D convolution layer over a sequence, channels last (autograd/ops/depthwise_conv1d.h;
// the conformer's, 004 §15.5.7): x [B, T, C] -> [B, T, C], each channel c convolved alone,
//   y_t[c] = b[c] + sum_{j < k} W[j, c] x_{t + j - left}[c],
// same padding (left = (k - 1) / 2) or causal (left = k - 1). k C + C parameters, where
// Conv1d(C, C, k) has k C^2 + C.
#include "lectern/autograd/ops/depthwise_conv1d.h"
#include "lectern/nn/module.h"

namespace nn {

class DepthwiseConv1d : public Module {
public:
    // W, b ~ U(-1/sqrt(k), 1/sqrt(k)), as PyTorch's Conv1d with groups = channels (fan-in k).
    DepthwiseConv1d(std::int64_t channels, std::int64_t kernel,
                    autograd::ConvPadding padding = autograd::ConvPadding::same,
                    autograd::Generator& gen = autograd::default_generator());
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }

    Tensor weight;  // [k, C]
    Tensor bias;    // [C]
    autograd::ConvPadding padding;
};

}  // namespace nn
