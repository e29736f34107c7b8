#pragma once
// Argument checks shared by the ops (and by nn's modules): each throws a typed
// error (errors.h) naming `op` and the operand's dtype and shape.
#include "autograd/dtype.h"

namespace autograd {

class Tensor;

void check_defined(const char* op, const Tensor& t);                            // ValueError
void check_floating(const char* op, const Tensor& t);                           // float32 or float64
void check_same_dtype(const char* op, const Tensor& a, const Tensor& b);
void check_dtype(const char* op, const Tensor& t, Dtype expected, const char* what);  // `what` names t

}  // namespace autograd
