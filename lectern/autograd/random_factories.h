#pragma once
// Seeded random tensors: the same generator state gives the same numbers on every
// machine (random.h). float32 or float64 only (DtypeError otherwise).
#include "lectern/autograd/random.h"
#include "lectern/autograd/tensor.h"

namespace autograd {

Tensor randn(const Shape& shape, Generator& gen, Dtype dtype = Dtype::float32);  // N(0, 1)
Tensor rand(const Shape& shape, Generator& gen, Dtype dtype = Dtype::float32);   // U[0, 1)
Tensor uniform(const Shape& shape, double low, double high, Generator& gen, Dtype dtype = Dtype::float32);

}  // namespace autograd
