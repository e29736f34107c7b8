#pragma once
// Reordering of dims (copies into the new contiguous layout).
#include "lectern/autograd/tensor.h"

namespace autograd {

// Swaps dims d0 and d1;  dx = transpose(dy, d0, d1)
Tensor transpose(const Tensor& x, std::int64_t d0, std::int64_t d1);
// y.shape[i] = x.shape[dims[i]];  dx = permute(dy, inverse(dims)).
// `dims` must be a permutation of 0..n-1 (negative allowed).
Tensor permute(const Tensor& x, const Shape& dims);

}  // namespace autograd
