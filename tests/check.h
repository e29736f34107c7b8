#pragma once
// Assertions shared by the tests: a gradient check that prints where it failed,
// and elementwise comparison of tensors against hand-worked values.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "autograd/autograd.h"

// REQUIRE_GRADCHECK(f, inputs): f(inputs) in float64 passes gradcheck; on
// failure Catch prints the report (worst element, both values).
#define REQUIRE_GRADCHECK(f, inputs)                                    \
    do {                                                                \
        auto report_ = autograd::gradcheck((f), (inputs));              \
        INFO(report_.message());                                        \
        REQUIRE(report_.passed);                                        \
    } while (0)

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
