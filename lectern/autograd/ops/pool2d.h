#pragma once
// Pooling over images, NCHW as PyTorch's max_pool2d and avg_pool2d: the CNN's third bias beside
// locality and weight tying (004 §15.5.6), a small shift of the input moving the output little.
// Each channel of each image separately, a k x k window every s pixels, no padding:
//   x [B, C, H, W] -> y [B, C, Ho, Wo],  Ho = (H - k) / s + 1,  Wo = (W - k) / s + 1  (rounded down)
#include "lectern/autograd/tensor.h"

namespace autograd {

// y[n, c, i, j] = max_{u, v < k} x[n, c, i s + u, j s + v]
// backward: the window's first maximum in reading order gets dy[n, c, i, j] (added up where
// windows overlap), the rest 0. stride 0 means stride = kernel (PyTorch's default).
Tensor max_pool2d(const Tensor& x, std::int64_t kernel, std::int64_t stride = 0);

// y[n, c, i, j] = (1 / k^2) sum_{u, v < k} x[n, c, i s + u, j s + v]
// backward: dx[n, c, i s + u, j s + v] += dy[n, c, i, j] / k^2. stride 0 means stride = kernel.
Tensor avg_pool2d(const Tensor& x, std::int64_t kernel, std::int64_t stride = 0);

}  // namespace autograd
