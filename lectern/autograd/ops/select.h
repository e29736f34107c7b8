#pragma once
// Taking one index along a dim, which is removed: x[:, i] in NumPy, e.g. the
// [CLASS] row of a ViT's tokens (002 ViT: y = LN(z_L^0)).
#include <cstdint>

#include "lectern/autograd/tensor.h"

namespace autograd {

// y = x[..., index, ...] along `dim`, y.shape = x.shape without dim; index in
// [-size, size), negative counting from the end. IndexError for a bad dim or index.
// The same as squeeze(narrow(x, dim, index, 1), dim), and so is its backward.
Tensor select(const Tensor& x, std::int64_t dim, std::int64_t index);

}  // namespace autograd
