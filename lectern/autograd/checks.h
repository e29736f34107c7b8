#pragma once
// Argument checks shared by the ops (and by nn's modules): each throws a typed
// error (errors.h) naming `op` and the operand's dtype and shape.
#include <cstdint>

#include "lectern/autograd/dtype.h"

namespace autograd {

class Tensor;

void check_defined(const char* op, const Tensor& t);   // ValueError
void check_floating(const char* op, const Tensor& t);  // float32 or float64
void check_same_dtype(const char* op, const Tensor& a, const Tensor& b);
void check_dtype(const char* op, const Tensor& t, Dtype expected, const char* what);  // `what` names t

// For a loss over classes: `scores` (named `what`: logits, log_probs) floating [..., C] and
// `target` int64 of its shape without the last dim, each target in [0, C) or ignore_index.
// Returns the number of rows whose target is not ignored (IndexError for one out of range).
std::int64_t check_class_targets(const char* op, const Tensor& scores, const char* what, const Tensor& target,
                                 std::int64_t ignore_index);

}  // namespace autograd
