#pragma once
#include "lectern/autograd/tensor.h"

namespace autograd {

// y = a where cond != 0, b elsewhere (torch.where). cond may be of any dtype (an int64 mask,
// or the 0/1 output of eq/lt/...); a and b are floating, of one dtype; the three broadcast
// together.  da = dy where cond != 0, else 0;  db = dy where cond == 0, else 0 (each summed
// back to its operand's shape). cond gets no gradient.
Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b);

}  // namespace autograd
