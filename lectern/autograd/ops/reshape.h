#pragma once
// Views of the same elements in another shape (data is contiguous, so these
// copy nothing in forward; backward reshapes dy back).
#include "lectern/autograd/tensor.h"

namespace autograd {

// One entry of `shape` may be -1 (inferred). ShapeError if the counts differ.
Tensor reshape(const Tensor& x, const Shape& shape);
// Inserts a dim of size 1 at `dim` (in [-(n+1), n]).
Tensor unsqueeze(const Tensor& x, std::int64_t dim);
// Removes `dim`, which must have size 1 (ShapeError otherwise).
Tensor squeeze(const Tensor& x, std::int64_t dim);

}  // namespace autograd
