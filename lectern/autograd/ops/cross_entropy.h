#pragma once
#include <cstdint>

#include "lectern/autograd/tensor.h"

namespace autograd {

// Cross-entropy from logits [..., C] against int64 targets [...] in [0, C), fused and
// stable, with PyTorch's label_smoothing; the mean over the rows whose target is not
// ignore_index (0 if there are none), shape []. Formula and backward in cross_entropy.cpp.
Tensor cross_entropy(const Tensor& logits, const Tensor& target, std::int64_t ignore_index = -100,
                     double label_smoothing = 0.0);

}  // namespace autograd
