// exp, log, sqrt, pow, tanh, sigmoid, relu, gelu.
#include "check.h"

using namespace autograd;

TEST_CASE("unary functions give the textbook values", "[forward]") {
    Tensor x = tensor({-1, 0, 1}, Dtype::float64);
    require_values(exp(x), {0.36787944117144233, 1, 2.718281828459045}, 1e-12);
    require_values(log(tensor({1, 2.718281828459045, 0.5}, Dtype::float64)), {0, 1, -0.6931471805599453}, 1e-12);
    require_values(sqrt(tensor({4, 2}, Dtype::float64)), {2, 1.4142135623730951}, 1e-12);
    require_values(pow(tensor({2, 3}, Dtype::float64), 3), {8, 27}, 1e-12);
    require_values(tanh(x), {-0.7615941559557649, 0, 0.7615941559557649}, 1e-12);
    require_values(sigmoid(x), {0.2689414213699951, 0.5, 0.7310585786300049}, 1e-12);
    require_values(relu(x), {0, 0, 1});
    // gelu(x) = x Phi(x): Phi(1) = 0.8413447460685429, Phi(-1) = 1 - Phi(1)
    require_values(gelu(x), {-0.15865525393145707, 0, 0.8413447460685429}, 1e-12);
}

// GELU's forward keeps its slope Phi(x) + x phi(x), phi from the e^(-x^2/2) inside its erf:
// float32's erf and e^x are vector_math.h's, which the float64 gradient checks never run.
// By hand: the slope at 1 is Phi(1) + phi(1) = 0.8413447460685429 + 0.24197072451914337.
TEST_CASE("gelu's gradient in float32 agrees with float64 and with the slope by hand", "[forward]") {
    std::vector<double> xs;
    for (int i = 0; i <= 800; ++i) xs.push_back(-8 + 16.0 * i / 800);
    auto slope = [&](Dtype dtype) {
        Tensor x = tensor(xs, dtype).requires_grad_();
        sum(gelu(x)).backward();
        return x.grad().to_vector();
    };
    const auto f32 = slope(Dtype::float32), f64 = slope(Dtype::float64);
    for (std::size_t i = 0; i < xs.size(); ++i) {
        INFO("x = " << xs[i]);
        REQUIRE(f32[i] == Approx(f64[i]).margin(2e-6));
    }
    Tensor x = tensor({-1, 0, 1}, Dtype::float64).requires_grad_();
    sum(gelu(x)).backward();
    require_values(x.grad(), {0.15865525393145707 - 0.24197072451914337, 0.5, 0.8413447460685429 + 0.24197072451914337},
                   1e-12);
}

TEST_CASE("pow(x, 0) has gradient 0, also at x = 0", "[forward]") {
    Tensor x = tensor({0, 2}, Dtype::float64).requires_grad_();
    sum(pow(x, 0.0)).backward();
    require_values(x.grad(), {0, 0});
}

TEST_CASE("unary functions reject integer tensors", "[errors]") {
    CHECK_THROWS_WITH(exp(zeros({2}, Dtype::int64)), Catch::Contains("exp: expected a float32 or float64 tensor"));
    CHECK_THROWS_AS(gelu(Tensor()), ValueError);
}
