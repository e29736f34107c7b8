#pragma once
// Depthwise 1-D convolution over a sequence, channels last: each channel convolved with its own
// kernel and no channel mixing (the conformer's convolution module, 004 §15.5.7; PyTorch's conv1d
// with groups = channels). Against conv1d (ops/conv1d.h), which mixes all C channels at every
// tap for k C^2 weights, it has k C: the channels are mixed by the pointwise convolutions
// around it instead.
#include "lectern/autograd/ops/conv1d.h"
#include "lectern/autograd/tensor.h"

namespace autograd {

// x [B, T, C], weight [k, C] (tap-major as conv1d's: PyTorch's [C, 1, k] read as [C, k] and
// transposed), bias [C] or undefined -> y [B, T, C]:
//   y[b, t, c] = bias[c] + sum_{j < k} w[j, c] x[b, t + j - left, c],  zeros outside [0, T),
// left = (k - 1) / 2 rounded down for same padding (PyTorch's padding="same"), k - 1 for causal.
// Backward:
//   dx[b, s, c] = sum_j w[j, c] dy[b, s - j + left, c]      (the taps that read x_s)
//   dw[j, c]    = sum_{b, t} dy[b, t, c] x[b, t + j - left, c]
//   dbias[c]    = sum_{b, t} dy[b, t, c]
Tensor depthwise_conv1d(const Tensor& x, const Tensor& weight, const Tensor& bias = Tensor(),
                        ConvPadding padding = ConvPadding::same);

}  // namespace autograd
