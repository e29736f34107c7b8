#pragma once
#include <vector>

#include "lectern/autograd/autograd.h"

namespace nn {

// Scales every gradient by max_norm / total_norm when the L2 norm of all
// gradients together exceeds max_norm (torch.nn.utils.clip_grad_norm_).
// Returns the total norm before clipping.
double clip_grad_norm_(const std::vector<autograd::Tensor>& params, double max_norm);

// Clamps every element of every gradient to [-clip_value, clip_value] in place
// (torch.nn.utils.clip_grad_value_); a NaN stays NaN, parameters without a gradient are
// passed over. ValueError unless clip_value >= 0.
void clip_grad_value_(const std::vector<autograd::Tensor>& params, double clip_value);

}  // namespace nn
