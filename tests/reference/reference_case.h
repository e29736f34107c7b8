#pragma once
// A reference case written by make_reference.py (PyTorch, float64): named
// tensors read from tests/reference/data/<case>.txt, and the comparisons of
// Lectern's values and gradients with them. Each case prints the largest
// difference it saw, so a run documents how close Lectern is.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "lectern/autograd/autograd.h"
#include "lectern/models/transformer.h"
#include "lectern/nn/module.h"

namespace reference {

using autograd::Tensor;

class Case {
public:
    explicit Case(std::string name);  // reads the file; fails the test if it is missing or malformed
    ~Case();                          // prints "reference <name>: N values, largest |difference| D"

    const Tensor& operator[](const std::string& key) const;
    bool has(const std::string& key) const { return tensors_.count(key) > 0; }
    // A fresh float64 leaf that requires grad (an int64 tensor is returned as it is).
    Tensor input(const std::string& key) const;
    // Copies every parameter of `m` (after m.to(float64)) from the tensor of the same name.
    void load_parameters(nn::Module& m, const std::string& prefix = "") const;

    // CHECKs that `got` matches the reference `key` within tol (absolute, plus
    // tol relative to the largest reference magnitude), and records the difference. An
    // undefined `got` (a gradient that never reached its tensor) counts as zeros.
    void compare(const std::string& key, const Tensor& got, double tol = 1e-10);
    // Backpropagates sum(out * dout) and compares the gradient of each named
    // input and of every parameter of `m` with "grad.<name>".
    void compare_gradients(const Tensor& out, const std::vector<std::pair<std::string, Tensor>>& inputs,
                           const nn::Module* m = nullptr, double tol = 1e-10);

private:
    std::string name_;
    std::map<std::string, Tensor> tensors_;
    double worst_ = 0;
    std::int64_t compared_ = 0;
};

// The tiny Transformer make_reference.py builds (V 7, N 1, d_model 8, d_ff 16,
// 2 heads, pre-norm, no dropout), in float64, with the parameters of `ref`.
std::shared_ptr<models::Transformer> tiny_transformer(const Case& ref);

}  // namespace reference
