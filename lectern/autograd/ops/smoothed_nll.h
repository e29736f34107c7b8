#pragma once
// The negative log-likelihood of a smoothed target distribution, read from the
// targets' indices (no dense [rows, C] target tensor): nll_loss and 001's
// LabelSmoothing in nn/loss.h are this op.
#include <cstdint>

#include "lectern/autograd/tensor.h"

namespace autograd {

// The target distribution of each row r is q[target[r]] = on, q[zero_class] = 0 (when
// zero_class is another class) and q[c] = off for every other class c. With count the rows
// whose target is not ignore_index,
//   loss = -(1 / count) sum over counted rows r of sum_c q[c] log_probs[r, c]   (0 if none count),
// reading log_probs only where q[c] > 0, so a -inf log-probability with no weight is no NaN.
// log_probs [..., C] floating, target int64 [...]; IndexError for a target outside [0, C).
Tensor smoothed_nll(const Tensor& log_probs, const Tensor& target, double on, double off, std::int64_t zero_class,
                    std::int64_t ignore_index);

}  // namespace autograd
