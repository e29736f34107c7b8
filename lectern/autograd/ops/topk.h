#pragma once
// The k largest (or smallest) entries along a dim, as torch.topk: values and their indices,
// sorted (the largest first, or the smallest first), equal values in index order. NaN counts
// as larger than any number, as in PyTorch.
#include <cstdint>

#include "lectern/autograd/tensor.h"

namespace autograd {

struct TopK {
    Tensor values;   // x's shape with size k along dim, x's dtype
    Tensor indices;  // the same shape, int64: where along dim each value was
};

// values = gather(x, dim, indices);  dx = dy placed at the chosen positions, 0 elsewhere
// (gather's backward). ValueError when k is outside [0, x.size(dim)].
TopK topk(const Tensor& x, std::int64_t k, std::int64_t dim = -1, bool largest = true);

}  // namespace autograd
