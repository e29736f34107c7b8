#pragma once
// Hard attention (004 §15.4.7): each output attends to ONE location, drawn from the attention
// distribution, instead of the soft average over all of them:
//   soft:  c = sum_t p_t v_t,   p = softmax(s)                 s [B, T] the scores, v [B, T, D] the values
//   hard:  c = v_z,             z ~ Categorical(p)             one location z per row
// The draw is not differentiable: c depends on the scores only through which z was drawn, so no
// gradient reaches s by backprop. What backprop reaches is c's dependence on the values
// (dc/dv_z = 1, 0 elsewhere); the scores are trained by the score-function estimator
// (nn/reinforce.h) from log p(z) = log_softmax(s)_z, which a glimpse returns beside c.
#include <cstdint>

#include "lectern/autograd/autograd.h"

namespace nn {

using autograd::Tensor;

struct Glimpse {
    Tensor chosen;    // z, int64 [B]
    Tensor value;     // c = v_z [B, D], differentiable in v
    Tensor log_prob;  // log p(z) = log_softmax(s)_z [B], differentiable in s
};

// z_b ~ softmax(s_b), one draw per row by `gen`: int64 [B]. Not differentiable.
Tensor sample_locations(const Tensor& scores, autograd::Generator& gen);

// The glimpse at given locations (tests and gradient checks fix z): scores [B, T] and values
// [B, T, D] floating of one dtype, chosen int64 [B] in [0, T). ShapeError, IndexError otherwise.
Glimpse glimpse(const Tensor& scores, const Tensor& values, const Tensor& chosen);

// Draws z from softmax(s) and takes the glimpse there.
Glimpse hard_attention(const Tensor& scores, const Tensor& values, autograd::Generator& gen);

}  // namespace nn
