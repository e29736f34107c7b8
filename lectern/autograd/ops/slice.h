#pragma once
// A strided range along one dim, as Python's x[start:end:step] (torch's x.slice):
// y = x[..., start, start + step, ..., ...] for the positions before `end`.
#include <cstdint>
#include <limits>

#include "lectern/autograd/tensor.h"

namespace autograd {

// The end of every dim (Python's x[start:]).
inline constexpr std::int64_t kEnd = std::numeric_limits<std::int64_t>::max();

// start and end negative count from the end, and are clamped to [0, size] as Python's are;
// step >= 1 (ValueError otherwise, as PyTorch). y.size(dim) = ceil((end - start) / step), or 0.
// dx = zeros of x's shape with dy placed at the positions taken.
Tensor slice(const Tensor& x, std::int64_t dim, std::int64_t start, std::int64_t end = kEnd, std::int64_t step = 1);

}  // namespace autograd
