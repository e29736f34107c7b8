#pragma once
// Helpers for module tests: gradcheck a module's output with respect to its
// input and every parameter, in float64.
#include "check.h"
#include "nn/module.h"

// Converts `m` to float64 and checks f(input) against input and every parameter
// (the parameters themselves are perturbed, so the module sees each change).
template <class F>
void require_module_gradcheck(nn::Module& m, const std::vector<autograd::Tensor>& inputs, F f) {
    m.to(autograd::Dtype::float64);
    std::vector<autograd::Tensor> all = inputs;
    for (const auto& [name, p] : m.named_parameters()) all.push_back(p);
    std::size_t n_inputs = inputs.size();
    REQUIRE_GRADCHECK([&](const std::vector<autograd::Tensor>& x) {
        return f(std::vector<autograd::Tensor>(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n_inputs)));
    }, all);
}
