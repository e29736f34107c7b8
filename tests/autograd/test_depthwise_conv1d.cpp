// Depthwise 1-D convolution, channels last (autograd/ops/depthwise_conv1d.h; the conformer's, 004 §15.5.7).
#include "check.h"

using namespace autograd;

TEST_CASE("depthwise_conv1d by hand: each channel its own kernel, same-padded, with its gradients", "[forward]") {
    // Two channels over T = 4: channel 0 is (1, 2, 3, 4), channel 1 is (1, 0, 0, 0).
    // k = 3, same: y_t = w_0 x_{t-1} + w_1 x_t + w_2 x_{t+1} + b, each channel alone.
    // Channel 0 taps (1, 10, 100), b 0.5: (210.5, 321.5, 432.5, 43.5).
    // Channel 1 taps (2, 0, 3), b 0: y_0 = 0 (x_1 = 0), y_1 = 2 x_0 = 2, then 0, 0.
    Tensor x = tensor({1, 1, 2, 0, 3, 0, 4, 0}, {1, 4, 2}, Dtype::float64).requires_grad_();
    Tensor w = tensor({1, 2, 10, 0, 100, 3}, {3, 2}, Dtype::float64).requires_grad_();
    Tensor b = tensor({0.5, 0}, {2}, Dtype::float64).requires_grad_();
    Tensor y = depthwise_conv1d(x, w, b);
    require_values(y, {210.5, 0, 321.5, 2, 432.5, 0, 43.5, 0}, 1e-13);
    // d sum(y): x_s is read by y_{s+1} (w_0), y_s (w_1) and y_{s-1} (w_2) where they exist:
    //   channel 0: dx = (w_1 + w_0, 111, 111, w_2 + w_1) = (11, 111, 111, 110);
    //   channel 1: dx = (2, 5, 5, 3).
    // dw_0 = sum_{t >= 1} x_{t-1} = 1 + 2 + 3 = 6 and 1 (channel 1); dw_1 = 10 and 1;
    // dw_2 = sum_{t <= 2} x_{t+1} = 9 and 0; db = (4, 4).
    sum(y).backward();
    require_values(x.grad(), {11, 2, 111, 5, 111, 5, 110, 3}, 1e-13);
    require_values(w.grad(), {6, 1, 10, 1, 9, 0}, 1e-13);
    require_values(b.grad(), {4, 4}, 1e-13);
}

TEST_CASE("depthwise_conv1d: causal reads nothing after t; an even kernel has one more tap after t", "[forward]") {
    Tensor x = tensor({1, 2, 3, 4}, {1, 4, 1}, Dtype::float64);
    // causal, k = 2, taps (10, 1): y_t = 10 x_{t-1} + x_t = (1, 12, 23, 34)
    Tensor w = tensor({10, 1}, {2, 1}, Dtype::float64).requires_grad_();
    Tensor y = depthwise_conv1d(x, w, Tensor(), ConvPadding::causal);
    require_values(y, {1, 12, 23, 34}, 1e-13);
    // Only the weight asks for a gradient: dw_0 = x_0 + x_1 + x_2 = 6 (y_0 reads the zero before x), dw_1 = 10.
    sum(y).backward();
    require_values(w.grad(), {6, 10}, 1e-13);
    // same, k = 2: left = (2 - 1) / 2 = 0, y_t = 10 x_t + x_{t+1} = (12, 23, 34, 40), as PyTorch's "same"
    require_values(depthwise_conv1d(x, tensor({10, 1}, {2, 1}, Dtype::float64)), {12, 23, 34, 40}, 1e-13);
}

TEST_CASE("depthwise_conv1d equals conv1d with a diagonal weight, values and gradient", "[forward]") {
    // W_full[o, j, c] = w[j, c] if o = c else 0 is the same convolution through the full op.
    Generator g(3);
    Tensor x = uniform({2, 6, 3}, -1, 1, g, Dtype::float64).requires_grad_();
    Tensor w = uniform({5, 3}, -1, 1, g, Dtype::float64);
    Tensor full = zeros({3, 5, 3}, Dtype::float64);
    for (std::int64_t c = 0; c < 3; ++c)
        for (std::int64_t j = 0; j < 5; ++j) full.data<double>()[(c * 5 + j) * 3 + c] = w.data<double>()[j * 3 + c];
    Tensor y = depthwise_conv1d(x, w);
    require_values(y, conv1d(x.detach(), full, Tensor(), 1, ConvPadding::same).to_vector(), 1e-14);
    sum(y * y).backward();
    Tensor dx = x.grad();
    x.zero_grad();
    Tensor yf = conv1d(x, full, Tensor(), 1, ConvPadding::same);
    sum(yf * yf).backward();
    require_values(dx, x.grad().to_vector(), 1e-13);
}

TEST_CASE("depthwise_conv1d refuses mismatched channels, an empty kernel and a wrong bias", "[errors]") {
    Tensor x = zeros({1, 4, 2}, Dtype::float64);
    CHECK_THROWS_WITH(depthwise_conv1d(x, zeros({3, 3}, Dtype::float64)),
                      Catch::Contains("depthwise_conv1d: x [B, T, C] and weight [k, C] (k >= 1) must agree on C"));
    REQUIRE_THROWS_AS(depthwise_conv1d(x, zeros({0, 2}, Dtype::float64)), ShapeError);
    REQUIRE_THROWS_AS(depthwise_conv1d(zeros({4, 2}, Dtype::float64), zeros({3, 2}, Dtype::float64)), ShapeError);
    CHECK_THROWS_WITH(depthwise_conv1d(x, zeros({3, 2}, Dtype::float64), zeros({3}, Dtype::float64)),
                      Catch::Contains("depthwise_conv1d: bias [3] must be [2]"));
}
