#pragma once
// Parameter initialisers, in place (as torch.nn.init). Each runs under a
// NoGradGuard, so it can be applied to parameters that require grad.
#include "lectern/autograd/autograd.h"

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

// While a SkipInitGuard lives (on this thread), the random initialisers above
// (xavier_uniform_, normal_, uniform_) leave their tensor as it is and draw
// nothing from the generator; zeros_ and ones_ still run. A model whose every
// random weight is about to be replaced (read from a weights file, or drawn
// again by the function that builds it) is then built without computing values
// nobody reads, as PyTorch's torch.nn.utils.skip_init builds a module.
class SkipInitGuard {
public:
    SkipInitGuard();
    ~SkipInitGuard();
    SkipInitGuard(const SkipInitGuard&) = delete;
    SkipInitGuard& operator=(const SkipInitGuard&) = delete;

private:
    bool previous_;
};
bool skipping_init();

}  // namespace nn::init
