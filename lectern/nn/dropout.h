#pragma once
#include "lectern/nn/module.h"

namespace nn {

// Dropout as a module: active in train(), the identity in eval(). Draws from
// autograd::default_generator() (seed it with autograd::manual_seed).
class Dropout : public Module {
public:
    explicit Dropout(double p);
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }
    double p;
};

}  // namespace nn
