#pragma once
// Training stops at the first non-finite loss or gradient instead of going on
// to train, and save, a model of NaNs. The message names the step and the value
// (the loss, or the first parameter whose gradient is not finite); anomaly mode
// (autograd::AnomalyGuard) then names the op that made it.
#include <cstdint>
#include <functional>
#include <string>

#include "lectern/autograd/autograd.h"
#include "lectern/nn/module.h"

namespace nn {

struct NonFiniteError : autograd::ValueError {
    using autograd::ValueError::ValueError;
};

// Throws NonFiniteError "step 12: the loss is NaN" unless `loss` is finite.
void check_finite_loss(double loss, std::int64_t step);

// Throws NonFiniteError "step 12: the gradient of 'w_q.weight' [64, 64] holds NaN"
// for the first parameter (in named_parameters() order) whose gradient is not finite.
void check_finite_gradients(const Module& module, std::int64_t step);

// Throws NonFiniteError "'h.0.attn.w_q.weight' [768, 768] holds NaN" for the
// first parameter whose values are not all finite (weights read from a file:
// a model of NaNs would generate nonsense without a word). With `name_in_file`,
// the parameter is named as the file it was read from names it ("'ln_f.bias'
// holds NaN" where the module says norm.beta).
void check_finite_parameters(const Module& module,
                             const std::function<std::string(const std::string&)>& name_in_file = nullptr);

}  // namespace nn
