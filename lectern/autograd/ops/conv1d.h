#pragma once
// 1-D convolution over a sequence, channels last ([B, T, C], as every sequence in Lectern):
// Table 15.1's convolutional layer (004 §15.5.5: kernel size k, O(k n d^2), and n / k layers,
// or log_k n with dilation, before any two positions meet).
#include "lectern/autograd/tensor.h"

namespace autograd {

// Where the output at t looks: causal reads x_{t - (k-1) r} .. x_t (nothing after t), same
// reads (k-1) r / 2 positions before t (rounded down) and the rest after it. r is the dilation.
enum class ConvPadding { causal, same };

// The windows a convolution reads, x [B, T, C] -> [B, T, k, C]:
//   windows[b, t, j, c] = x[b, t + j r - left, c],  0 where t + j r - left is outside [0, T);
// backward: dx[b, s, c] = sum over taps j of dwindows[b, s - j r + left, j, c] (t in [0, T)).
Tensor conv_windows(const Tensor& x, std::int64_t kernel, std::int64_t dilation, std::int64_t left);

// y[b, t, o] = bias[o] + sum_{j, c} w[o, j, c] x[b, t + j r - left, c], y [B, T, O], for
// x [B, T, C], weight [O, k, C] (tap-major: PyTorch's conv1d weight [O, C, k] with its last two
// dims swapped), bias [O] or undefined. It is a Linear over the windows:
//   y = linear(windows(x) as [B, T, k C], weight as [O, k C], bias),
// one GEMM; the backward is conv_windows's and linear's.
Tensor conv1d(const Tensor& x, const Tensor& weight, const Tensor& bias = Tensor(), std::int64_t dilation = 1,
              ConvPadding padding = ConvPadding::causal);

}  // namespace autograd
