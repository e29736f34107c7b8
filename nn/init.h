#pragma once
// Parameter initialisers, in place (as torch.nn.init). Each runs under a
// NoGradGuard, so it can be applied to parameters that require grad.
#include "autograd/autograd.h"

namespace nn::init {

using autograd::Generator;
using autograd::Tensor;

// Glorot / Xavier uniform, U(-a, a) with a = gain sqrt(6 / (fan_in + fan_out))
// ("fan_avg", as 001's make_model). For a [out, in] weight fan_in = in,
// fan_out = out; for more dims the trailing dims multiply in as receptive field.
// ValueError for a tensor of fewer than 2 dims.
void xavier_uniform_(Tensor& t, Generator& gen, double gain = 1.0);
void normal_(Tensor& t, double mean, double std, Generator& gen);
void uniform_(Tensor& t, double low, double high, Generator& gen);
void zeros_(Tensor& t);
void ones_(Tensor& t);

}  // namespace nn::init
