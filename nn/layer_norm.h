#pragma once
#include "nn/module.h"

namespace nn {

// Layer normalisation over the last dim with a learned gain and bias
// (003 "Layer normalization": s = gamma a_hat + beta, a_hat = (a - mu) / sqrt(v + eps)).
// gamma starts at 1, beta at 0. (001's LayerNorm divides by std + eps with an
// unbiased std; Lectern follows 003's formula, as torch.nn.LayerNorm does.)
class LayerNorm : public Module {
public:
    explicit LayerNorm(std::int64_t d, double eps = 1e-5);
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }

    Tensor gamma;  // [d]
    Tensor beta;   // [d]
    double eps;
};

}  // namespace nn
