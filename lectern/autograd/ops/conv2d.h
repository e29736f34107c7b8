#pragma once
// 2-D convolution over images, NCHW as PyTorch's conv2d: the CNN's layer, which 004 §15.5.6
// sets against the ViT's attention (locality: each output sees a kh x kw window; weight tying:
// one kernel at every position).
#include "lectern/autograd/tensor.h"

namespace autograd {

// y[n, o, i, j] = bias[o] + sum_{c, u, v} weight[o, c, u, v] x[n, c, i s + u - p, j s + v - p]
// for x [B, C, H, W], weight [O, C, kh, kw], bias [O] or undefined, stride s > 0, padding
// 0 <= p < kh, kw (zeros): y [B, O, (H + 2p - kh) / s + 1, (W + 2p - kw) / s + 1]. The equations and
// their backward are reference/conv2d.h's.
Tensor conv2d(const Tensor& x, const Tensor& weight, const Tensor& bias = Tensor(), std::int64_t stride = 1,
              std::int64_t padding = 0);

}  // namespace autograd
