// The GRU (nn/gru.h; 004 §15.5.5 Table 15.1's recurrent layer) and the Conv1d layer.
#include <cmath>

#include "check.h"
#include "lectern/nn/conv1d.h"
#include "lectern/nn/gru.h"

using namespace autograd;

TEST_CASE("GRU by hand: gates, candidate and h_t = (1 - z) n + z h_{t-1}, two steps", "[module]") {
    // in = H = 1. W_ir = W_iz = W_in = 1, W_hr = W_hz = 0, W_hn = 2, b_hn = 0.5, other biases 0.
    //   t = 1, x = 1:  r = z = sigmoid(1) = 0.73106, n = tanh(1 + r (2 * 0 + 0.5)) = 0.87767,
    //                  h_1 = (1 - z) n = 0.23604
    //   t = 2, x = -1: r = z = sigmoid(-1) = 0.26894, n = tanh(-1 + r (2 h_1 + 0.5)) = -0.62828,
    //                  h_2 = (1 - z) n + z h_1 = -0.39583
    nn::GRU gru(1, 1);
    gru.to(Dtype::float64);
    {
        NoGradGuard no_grad;
        gru.w_ih->weight.copy_(tensor({1, 1, 1}, {3, 1}, Dtype::float64));
        gru.w_ih->bias.copy_(tensor({0, 0, 0}, {3}, Dtype::float64));
        gru.w_hh->weight.copy_(tensor({0, 0, 2}, {3, 1}, Dtype::float64));
        gru.w_hh->bias.copy_(tensor({0, 0, 0.5}, {3}, Dtype::float64));
    }
    auto sigmoid_ = [](double v) { return 1 / (1 + std::exp(-v)); };
    const double r1 = sigmoid_(1), n1 = std::tanh(1 + r1 * 0.5), h1 = (1 - r1) * n1;
    const double r2 = sigmoid_(-1), n2 = std::tanh(-1 + r2 * (2 * h1 + 0.5)), h2 = (1 - r2) * n2 + r2 * h1;
    REQUIRE(std::abs(h1 - 0.23604) < 1e-5);
    REQUIRE(std::abs(h2 + 0.39583) < 1e-5);
    require_values(gru(tensor({1, -1}, {1, 2, 1}, Dtype::float64)), {h1, h2}, 1e-15);
}

TEST_CASE("a GRU's h_t depends on x_1..x_t and not on what comes after", "[module]") {
    nn::GRU gru(3, 4);
    gru.to(Dtype::float64);
    Tensor x = rand64({2, 6, 3}, 1).detach();
    Tensor later = concat({narrow(x, 1, 0, 4), full({2, 2, 3}, 5.0, Dtype::float64)}, 1);  // x_5, x_6 changed
    Tensor a = gru(x), b = gru(later);
    require_values(narrow(b, 1, 0, 4), narrow(a, 1, 0, 4).to_vector(), 0);
    REQUIRE(std::abs(b.to_vector().back() - a.to_vector().back()) > 1e-3);
}

TEST_CASE("Conv1d is autograd::conv1d with its own weight [out, k, in] and bias", "[module]") {
    nn::Conv1d conv(2, 3, 3, 2);
    conv.to(Dtype::float64);
    REQUIRE(conv.weight.shape() == Shape{3, 3, 2});
    Tensor x = rand64({2, 7, 2}, 2).detach();
    require_values(conv(x), conv1d(x, conv.weight, conv.bias, 2).to_vector(), 0);
    REQUIRE_THROWS_AS(nn::Conv1d(2, 3, 0), ValueError);
}
