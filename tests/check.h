#pragma once
// Assertions shared by the tests: a gradient check that prints where it failed,
// and elementwise comparison of tensors against hand-worked values.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <vector>

#include "lectern/autograd/autograd.h"

// REQUIRE_GRADCHECK(f, inputs): f(inputs) in float64 passes gradcheck; on
// failure Catch prints the report (worst element, both values). Variadic so a
// lambda with several captures can be passed without extra parentheses.
inline void require_gradcheck(const std::function<autograd::Tensor(const std::vector<autograd::Tensor>&)>& f,
                              const std::vector<autograd::Tensor>& inputs) {
    autograd::GradcheckReport report = autograd::gradcheck(f, inputs);
    INFO(report.message());
    REQUIRE(report.passed);
}
#define REQUIRE_GRADCHECK(...) require_gradcheck(__VA_ARGS__)

// Every element of `t` equals `expected` (row-major) within `tol`; a failure
// names the first element that differs.
inline void require_values(const autograd::Tensor& t, const std::vector<double>& expected, double tol = 1e-6) {
    std::vector<double> got = t.to_vector();
    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        INFO(fmt::format("element {}: got {:.9g}, expected {:.9g}", i, got[i], expected[i]));
        REQUIRE(std::abs(got[i] - expected[i]) <= tol);
    }
}

// Float64 leaf with random N(0,1) values that requires grad.
inline autograd::Tensor rand64(const autograd::Shape& shape, std::uint64_t seed) {
    autograd::Generator gen(seed);
    return autograd::randn(shape, gen, autograd::Dtype::float64).requires_grad_();
}
