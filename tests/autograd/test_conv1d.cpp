// 1-D convolution over a sequence, channels last (autograd/ops/conv1d.h; 004 §15.5.5 Table 15.1).
#include "check.h"

using namespace autograd;

TEST_CASE("conv1d by hand: causal, dilated and same-padded, with its gradients", "[forward]") {
    // x = (1, 2, 3, 4), one channel; taps w_0 = 10 (the earlier position), w_1 = 1, b = 0.5.
    // causal, r = 1: y_t = 10 x_{t-1} + x_t + 0.5 = (1.5, 12.5, 23.5, 34.5)
    // causal, r = 2: y_t = 10 x_{t-2} + x_t + 0.5 = (1.5, 2.5, 13.5, 24.5)
    Tensor x = tensor({1, 2, 3, 4}, {1, 4, 1}, Dtype::float64).requires_grad_();
    Tensor w = tensor({10, 1}, {1, 2, 1}, Dtype::float64).requires_grad_();
    Tensor b = tensor({0.5}, {1}, Dtype::float64).requires_grad_();
    Tensor y = conv1d(x, w, b);
    require_values(y, {1.5, 12.5, 23.5, 34.5}, 1e-15);
    require_values(conv1d(x, w, b, 2), {1.5, 2.5, 13.5, 24.5}, 1e-15);
    // d sum(y): x_s is read by y_s (w_1) and y_{s+1} (w_0): dx = (11, 11, 11, 1);
    // dw_0 = x_0 + x_1 + x_2 = 6 (y_0 reads the zero before x), dw_1 = 10, db = 4.
    sum(y).backward();
    require_values(x.grad(), {11, 11, 11, 1}, 1e-15);
    require_values(w.grad(), {6, 10}, 1e-15);
    require_values(b.grad(), {4}, 1e-15);
    // same, k = 3: y_t = x_{t-1} + 10 x_t + 100 x_{t+1} = (210, 321, 432, 43).
    Tensor w3 = tensor({1, 10, 100}, {1, 3, 1}, Dtype::float64);
    require_values(conv1d(x.detach(), w3, Tensor(), 1, ConvPadding::same), {210, 321, 432, 43}, 1e-13);
}

TEST_CASE("conv1d mixes channels as a Linear over the window: W[o, j, c] reads channel c at tap j", "[forward]") {
    // Two channels in, one out, k = 2 causal: y_t = W[0,0,:] . x_{t-1} + W[0,1,:] . x_t.
    // x = ((1, 2), (3, 4)), W[0,0,:] = (1, 0), W[0,1,:] = (0, 1): y = (0 + 2, 1 + 4) = (2, 5).
    Tensor x = tensor({1, 2, 3, 4}, {1, 2, 2}, Dtype::float64);
    Tensor w = tensor({1, 0, 0, 1}, {1, 2, 2}, Dtype::float64);
    require_values(conv1d(x, w), {2, 5}, 1e-15);
    // The windows themselves: [x_{t-1}; x_t] per t, zeros before the start.
    require_values(conv_windows(x, 2, 1, 1), {0, 0, 1, 2, 1, 2, 3, 4}, 1e-15);
}

TEST_CASE("conv1d refuses mismatched channels, a bad dilation and windows wider than their padding", "[errors]") {
    Tensor x = zeros({1, 4, 2}, Dtype::float64);
    REQUIRE_THROWS_AS(conv1d(x, zeros({1, 2, 3}, Dtype::float64)), ShapeError);
    REQUIRE_THROWS_AS(conv1d(x, zeros({1, 2, 2}, Dtype::float64), Tensor(), 0), ValueError);
    REQUIRE_THROWS_AS(conv_windows(x, 2, 1, 2), ValueError);
    REQUIRE_THROWS_AS(conv1d(zeros({4, 2}, Dtype::float64), zeros({1, 2, 2}, Dtype::float64)), ShapeError);
    // A span past 2^62 positions is refused, not wrapped: (3 - 1) 2^62 would overflow int64.
    const std::int64_t huge = std::int64_t{1} << 62;
    CHECK_THROWS_WITH(conv1d(x, zeros({1, 3, 2}, Dtype::float64), Tensor(), huge),
                      Catch::Contains(
                          "conv1d: kernel 3 with dilation 4611686018427387904 spans more than 2^62 positions"));
    CHECK_THROWS_WITH(conv_windows(x, 3, huge, 0), Catch::Contains("conv_windows: kernel 3 with dilation"));
    CHECK(conv1d(x, zeros({1, 2, 2}, Dtype::float64), Tensor(), huge).shape() == Shape{1, 4, 1});  // a span of 2^62
}
