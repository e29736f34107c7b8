#pragma once
#include "lectern/nn/module.h"

namespace nn {

// y = x W^T + b (PyTorch's layout: weight [out, in]). On x [..., in] this is
// ONE GEMM over all leading dims (docs/design.md, "Speed on two cores"). Initialised as
// PyTorch: W, b ~ U(-1/sqrt(in), 1/sqrt(in)).
class Linear : public Module {
public:
    Linear(std::int64_t in_features, std::int64_t out_features, bool bias = true,
           autograd::Generator& gen = autograd::default_generator());
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }

    Tensor weight;  // [out, in]
    Tensor bias;    // [out], undefined without bias
};

}  // namespace nn
