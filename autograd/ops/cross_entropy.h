#pragma once
#include <cstdint>

#include "autograd/tensor.h"

namespace autograd {

// Cross-entropy from logits, fused and stable. logits [..., C], target int64
// [...] with entries in [0, C) or equal to ignore_index. For each counted row,
// with log p = log_softmax(logits) and smoothing eps:
//   loss_row = -(1 - eps) log p[target] - eps/C sum_c log p[c]
// (PyTorch's label_smoothing). The result (shape []) is the mean over rows
// whose target is not ignore_index; 0 if every row is ignored.
// dlogits_row = dy / count * (softmax(logits) - (1 - eps) onehot(target) - eps/C).
Tensor cross_entropy(const Tensor& logits, const Tensor& target, std::int64_t ignore_index = -100,
                     double label_smoothing = 0.0);

}  // namespace autograd
