#pragma once
// The elementwise activations as modules, for a Sequential (sequential.h): each has no
// parameters and applies its autograd op (ops/unary.h holds the formulas and derivatives).
#include "lectern/nn/module.h"

namespace nn {

// y = max(0, x)
class ReLU : public Module {
public:
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }
};

// y = x Phi(x), exact (erf); with tanh_approximation, GPT-2's tanh form (PyTorch's
// GELU(approximate="tanh"))
class GELU : public Module {
public:
    explicit GELU(bool tanh_approximation = false) : tanh_approximation(tanh_approximation) {}
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }
    bool tanh_approximation;
};

// y = tanh x
class Tanh : public Module {
public:
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }
};

// y = 1 / (1 + e^-x)
class Sigmoid : public Module {
public:
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }
};

// y = x sigmoid(x)
class SiLU : public Module {
public:
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }
};

}  // namespace nn
