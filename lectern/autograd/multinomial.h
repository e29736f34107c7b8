#pragma once
// Drawing category indices from weights, as torch.multinomial: each draw picks category j
// with probability w_j / sum(w) (the weights need not sum to 1). Drawn by `gen`, so the same
// generator state gives the same indices on every machine.
#include <cstdint>

#include "lectern/autograd/random.h"
#include "lectern/autograd/tensor.h"

namespace autograd {

// weights [n] or [rows, n], float32 or float64, finite and >= 0, each row with a positive
// sum; returns int64 [num_samples] or [rows, num_samples]. With replacement, every draw
// is from the same weights; without, a drawn category is not drawn again in its row (so
// num_samples is at most the row's count of positive weights). Not differentiable.
// ValueError naming the row and the entry otherwise.
Tensor multinomial(const Tensor& weights, std::int64_t num_samples, bool replacement, Generator& gen);

}  // namespace autograd
