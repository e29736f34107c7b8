#pragma once
// Joining and slicing along one dim; each is the other's backward.
#include <vector>

#include "lectern/autograd/tensor.h"

namespace autograd {

// Joins tensors of one dtype whose shapes agree except along `dim`;
// dx_i = narrow(dy, dim, offset_i, size_i).
Tensor concat(const std::vector<Tensor>& xs, std::int64_t dim);
// Joins tensors of one shape and dtype along a new dim `dim` (torch.stack: y[..., i, ...] =
// xs[i], `dim` in [-(rank + 1), rank]): concat of the xs each unsqueezed at dim;
// dx_i = dy[..., i, ...].
Tensor stack(const std::vector<Tensor>& xs, std::int64_t dim);
// y = x[..., start:start+length, ...] along `dim` (a copy);
// dx = zeros with dy placed at [start, start+length).
Tensor narrow(const Tensor& x, std::int64_t dim, std::int64_t start, std::int64_t length);

}  // namespace autograd
