#pragma once
// Seeded random tensors: the same generator state gives the same numbers on every
// machine (random.h). float32 or float64 only (DtypeError otherwise), but randperm.
#include "lectern/autograd/random.h"
#include "lectern/autograd/tensor.h"

namespace autograd {

Tensor randn(const Shape& shape, Generator& gen, Dtype dtype = Dtype::float32);  // N(0, 1)
Tensor rand(const Shape& shape, Generator& gen, Dtype dtype = Dtype::float32);   // U[0, 1)
Tensor uniform(const Shape& shape, double low, double high, Generator& gen, Dtype dtype = Dtype::float32);
// 0, 1, ..., n - 1 in an order drawn by gen (Fisher-Yates, n - 1 draws of gen.randint), int64 [n].
Tensor randperm(std::int64_t n, Generator& gen);

}  // namespace autograd
