#pragma once
// Tensors made from values. Shapes are {d0, d1, ...}; dtype defaults to float32.
#include <cstdint>
#include <vector>

#include "lectern/autograd/tensor.h"

namespace autograd {

Tensor zeros(const Shape& shape, Dtype dtype = Dtype::float32);
Tensor ones(const Shape& shape, Dtype dtype = Dtype::float32);
Tensor full(const Shape& shape, double value, Dtype dtype = Dtype::float32);
Tensor arange(std::int64_t end, Dtype dtype = Dtype::float32);  // 0, 1, ..., end-1
Tensor arange(double start, double end, double step = 1, Dtype dtype = Dtype::float32);
// From values in row-major order; ShapeError if their count is not numel(shape).
Tensor tensor(const std::vector<double>& values, const Shape& shape, Dtype dtype = Dtype::float32);
Tensor tensor(const std::vector<double>& values, Dtype dtype = Dtype::float32);  // 1-D

}  // namespace autograd
