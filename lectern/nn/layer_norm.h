#pragma once
#include <optional>

#include "lectern/nn/module.h"

namespace nn {

// Which layer normalisation (the notes give two):
//   standard:  s = gamma (a - mu) / sqrt(v + eps) + beta,  v the biased variance, eps 1e-5
//              (003 "Layer normalization"; torch.nn.LayerNorm)
//   annotated: s = gamma (a - mu) / (sigma + eps) + beta,  sigma the unbiased standard
//              deviation (divides by D - 1), eps 1e-6 outside the root (001's LayerNorm)
enum class LayerNormFormula { standard, annotated };

// Layer normalisation over the last dim with a learned gain gamma (starts at 1)
// and bias beta (starts at 0). The standard formula is one fused op
// (autograd::layer_norm); 001's is composed of elementary ops.
class LayerNorm : public Module {
public:
    explicit LayerNorm(std::int64_t d, double eps = 1e-5, LayerNormFormula formula = LayerNormFormula::standard);
    // The formula with `eps`, or when unset its own note's (1e-5 standard, 1e-6 annotated).
    LayerNorm(std::int64_t d, LayerNormFormula formula, std::optional<double> eps = {});
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }

    Tensor gamma;  // [d]
    Tensor beta;   // [d]
    double eps;
    LayerNormFormula formula;
};

}  // namespace nn
