// gradcheck itself: it passes correct gradients and catches a wrong one,
// saying where.
#include "check.h"

using namespace autograd;

namespace {
// y = x^2 with a deliberately wrong backward (3x instead of 2x).
Tensor wrong_square(const Tensor& x) {
    Tensor y = x.detach() * x.detach();
    return record("wrong_square", {x}, y, [x](const Tensor& dy) { return std::vector{dy * x * 3.0}; });
}
}  // namespace

TEST_CASE("gradcheck passes a correct gradient", "[gradcheck]") {
    Tensor x = rand64({3, 4}, 3);
    auto report = gradcheck([](const std::vector<Tensor>& in) { return in[0] * in[0]; }, {x});
    INFO(report.message());
    CHECK(report.passed);
    CHECK(report.elements_checked == 12);
}

TEST_CASE("gradcheck catches a wrong gradient and names the element", "[gradcheck]") {
    Tensor a = rand64({2}, 4);
    Tensor x = tensor({0, 0, 0, 1, 0, 0}, {2, 3}, Dtype::float64).requires_grad_();
    auto report = gradcheck([](const std::vector<Tensor>& in) { return wrong_square(in[1]) + sum(in[0]); }, {a, x});
    CHECK_FALSE(report.passed);
    CHECK(report.worst_input == 1);
    CHECK(report.worst_index == Shape{1, 0});  // the only nonzero element, where 3x != 2x
    CHECK(report.message().find("FAILED") != std::string::npos);
}

TEST_CASE("gradcheck insists on float64", "[gradcheck][errors]") {
    Tensor x = ones({2}).requires_grad_();
    CHECK_THROWS_AS(gradcheck([](const std::vector<Tensor>& in) { return in[0]; }, {x}), DtypeError);
}
