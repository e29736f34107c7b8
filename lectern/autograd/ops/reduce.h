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
// Minimum over `dim`, as -max(-x, dim);  dx = dy at the arg-min (the first, on ties), 0 elsewhere
Tensor min(const Tensor& x, std::int64_t dim, bool keepdim = false);
// Index of the minimum over `dim` (first on ties), int64; not differentiable.
Tensor argmin(const Tensor& x, std::int64_t dim, bool keepdim = false);
// Sum or mean over several dims at once (each once, any order, negative from the end), e.g.
// sum(x, {0, 2}); with keepdim each stays as size 1.
Tensor sum(const Tensor& x, const Shape& dims, bool keepdim = false);
Tensor mean(const Tensor& x, const Shape& dims, bool keepdim = false);
// Product over `dim`: y = prod_k x_k;  dx_k = dy prod_{j != k} x_j (exact where some x_j = 0)
Tensor prod(const Tensor& x, std::int64_t dim, bool keepdim = false);
// Variance over `dim`: y = sum_k (x_k - mean x)^2 / (n - correction), correction 1 being
// Bessel's (PyTorch's default) and 0 the population's;  dx_k = dy 2 (x_k - mean x) / (n - correction).
// ShapeError when n - correction <= 0. Without a dim, over all elements with Bessel's correction
// (for another, var(x.reshape({-1}), 0, false, correction)).
Tensor var(const Tensor& x, std::int64_t dim, bool keepdim = false, std::int64_t correction = 1);
Tensor var(const Tensor& x);
// Standard deviation: sqrt(var), with var's arguments;  dx = dy d var / (2 std) (NaN where std = 0, as PyTorch's)
Tensor std(const Tensor& x, std::int64_t dim, bool keepdim = false, std::int64_t correction = 1);
Tensor std(const Tensor& x);
// Sum of the squares of all elements, in double (gradient clipping's norm); not
// differentiable. Summed in a fixed order, the same with any number of threads.
double squared_norm(const Tensor& x);

}  // namespace autograd
