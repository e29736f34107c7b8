#pragma once
// Reductions.
#include "lectern/autograd/tensor.h"

namespace autograd {

// Sum of all elements -> shape [];  dx = dy broadcast to x.shape
Tensor sum(const Tensor& x);
// Sum over `dim` (kept as size 1 when keepdim);  dx = dy broadcast back
Tensor sum(const Tensor& x, std::int64_t dim, bool keepdim = false);
// Mean = sum / count;  dx = dy / count broadcast back
Tensor mean(const Tensor& x);
Tensor mean(const Tensor& x, std::int64_t dim, bool keepdim = false);
// Maximum over `dim`;  dx = dy at the arg-max (the first, on ties), 0 elsewhere
Tensor max(const Tensor& x, std::int64_t dim, bool keepdim = false);
// Index of the maximum over `dim` (first on ties), int64; not differentiable.
Tensor argmax(const Tensor& x, std::int64_t dim, bool keepdim = false);
// Sum of the squares of all elements, in double (gradient clipping's norm); not
// differentiable. Summed in a fixed order, the same with any number of threads.
double squared_norm(const Tensor& x);

}  // namespace autograd
