// exp, log, sqrt, pow, tanh, sigmoid, relu, gelu, gelu_tanh, abs, clamp.
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

TEST_CASE("gelu_tanh is GPT-2's 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), PyTorch's values", "[forward]") {
    Tensor x = tensor({-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0}, {8}, Dtype::float64);
    // torch.nn.functional.gelu(x, approximate="tanh") in float64
    const double want[] = {-0.0036373920817729943, -0.1588080093917233, -0.15428599017485606, 0.0,
                           0.34571400982514394,    0.8411919906082768,  1.954597694087775,    2.996362607918227};
    Tensor y = gelu_tanh(x);
    for (int i = 0; i < 8; ++i) CHECK(y.data<double>()[i] == Approx(want[i]).margin(1e-15));
}

// The slope by hand: dy/dx = (1 + t) / 2 + x (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 x^2) / 2,
// t = tanh(sqrt(2/pi) (x + 0.044715 x^3)): 1/2 at 0, 1.0829640838457826 at 1 and -0.08296408384578255 at -1
// (their sum is 1: y(x) - y(-x) = x, so the slopes at x and -x add to 1).
TEST_CASE("gelu_tanh's slope by hand, and float32's equal to float64's", "[forward]") {
    Tensor x = tensor({-1, 0, 1}, Dtype::float64).requires_grad_();
    sum(gelu_tanh(x)).backward();
    require_values(x.grad(), {-0.08296408384578255, 0.5, 1.0829640838457826}, 1e-12);
    std::vector<double> xs;
    for (int i = 0; i <= 800; ++i) xs.push_back(-8 + 16.0 * i / 800);
    auto slopes = [&](Dtype dtype) {
        Tensor v = tensor(xs, dtype).requires_grad_();
        sum(gelu_tanh(v)).backward();
        return v.grad().to_vector();
    };
    const auto f32 = slopes(Dtype::float32), f64 = slopes(Dtype::float64);
    for (std::size_t i = 0; i < xs.size(); ++i) {
        INFO("x = " << xs[i]);
        REQUIRE(f32[i] == Approx(f64[i]).margin(2e-6));
    }
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

TEST_CASE("abs and clamp by hand, with PyTorch's gradients at the kink and at the bounds", "[forward]") {
    Tensor x = tensor({-2, 0, 3}, Dtype::float64).requires_grad_();
    Tensor y = abs(x);
    require_values(y, {2, 0, 3});
    sum(y).backward();
    require_values(x.grad(), {-1, 0, 1});  // sign(x), 0 at 0

    // clamp to [-1, 1]: the gradient passes for -1 <= x <= 1, the bounds included (torch.clamp).
    Tensor z = tensor({-2, -1, 0, 0.5, 1, 3}, Dtype::float64).requires_grad_();
    Tensor c = clamp(z, -1, 1);
    require_values(c, {-1, -1, 0, 0.5, 1, 1});
    c.backward(tensor({1, 2, 3, 4, 5, 6}, Dtype::float64));
    require_values(z.grad(), {0, 2, 3, 4, 5, 0});
    require_values(clamp(tensor({-5.0f, 0.25f, 9.0f}), -0.5, 0.5), {-0.5, 0.25, 0.5});  // float32
}

TEST_CASE("clamp refuses bounds that are not an interval", "[errors]") {
    CHECK_THROWS_WITH(clamp(zeros({2}), 1, -1), "clamp: the bounds [1, -1] are not an interval (lo <= hi)");
    CHECK_THROWS_AS(clamp(zeros({2}), std::nan(""), 1), ValueError);
}

TEST_CASE("sin, cos, log1p, silu and softplus give the textbook values and slopes", "[forward]") {
    const double pi = 3.141592653589793;
    require_values(sin(tensor({0, pi / 2, -pi / 6}, Dtype::float64)), {0, 1, -0.5}, 1e-15);
    require_values(cos(tensor({0, pi / 3, pi}, Dtype::float64)), {1, 0.5, -1}, 1e-15);
    // ln(1 + 1e-10) = 1e-10 - 5e-21 + ...; ln(1 + x) formed as written loses it (1.0000000827e-10)
    require_values(log1p(tensor({0, 2.718281828459045 - 1, 1e-10}, Dtype::float64)), {0, 1, 9.9999999995e-11}, 1e-25);
    // silu(x) = x sigmoid(x): sigmoid(1) = 0.7310585786300049, sigmoid(-1) = 1 - sigmoid(1)
    Tensor x = tensor({-1, 0, 1}, Dtype::float64);
    require_values(silu(x), {-0.2689414213699951, 0, 0.7310585786300049}, 1e-15);
    // softplus(x) = ln(1 + e^x): ln 2 at 0, ln(1 + e), ln(1 + 1/e); no overflow at +-1000
    require_values(softplus(tensor({-1, 0, 1, 1000, -1000}, Dtype::float64)),
                   {0.31326168751822286, 0.6931471805599453, 1.3132616875182228, 1000, 0}, 1e-15);

    auto slope = [](Tensor (*f)(const Tensor&), std::vector<double> at) {
        Tensor x = tensor(at, Dtype::float64).requires_grad_();
        sum(f(x)).backward();
        return x.grad();
    };
    require_values(slope(sin, {0, 0.5}), {1, 0.8775825618903728}, 1e-15);  // cos x
    require_values(slope(cos, {0, 0.5}), {0, -0.479425538604203}, 1e-15);  // -sin x
    require_values(slope(log1p, {0, 1, -0.5}), {1, 0.5, 2}, 1e-15);        // 1 / (1 + x)
    // silu' = s (1 + x (1 - s)): 1/2 at 0; at 1, 0.7310585786300049 * 1.2689414213699951
    require_values(slope(silu, {0, 1, -1}), {0.5, 0.9276705118714869, 0.07232948812851325}, 1e-15);
    require_values(slope(softplus, {0, 1, -1000}), {0.5, 0.7310585786300049, 0}, 1e-15);  // sigmoid x
}
