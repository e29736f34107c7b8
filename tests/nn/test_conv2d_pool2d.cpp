// nn::Conv2d, nn::MaxPool2d, nn::AvgPool2d (lectern/nn/conv2d.h, pool2d.h; 004 §15.5.6).
#include "check.h"
#include "lectern/nn/conv2d.h"
#include "lectern/nn/pool2d.h"

using namespace autograd;

TEST_CASE("Conv2d is autograd::conv2d with its own weight [out, in, k, k] and bias", "[module]") {
    Generator gen(3);
    nn::Conv2d conv(2, 4, 3, /*stride=*/2, /*padding=*/1, gen);
    CHECK(conv.weight.shape() == Shape{4, 2, 3, 3});
    CHECK(conv.parameter_count() == 4 * 2 * 9 + 4);
    Tensor x = randn({2, 2, 7, 7}, gen);
    Tensor y = conv(x);
    CHECK(y.shape() == Shape{2, 4, 4, 4});  // (7 + 2 - 3) / 2 + 1 = 4
    require_values(y, conv2d(x, conv.weight, conv.bias, 2, 1).to_vector(), 0);
    // PyTorch's bound 1 / sqrt(in k^2) = 1 / sqrt(18).
    for (double w : conv.weight.to_vector()) CHECK(std::abs(w) <= 1 / std::sqrt(18.0));
}

TEST_CASE("MaxPool2d and AvgPool2d halve a 4x4 image with 2x2 windows", "[module]") {
    Tensor x = tensor({1, 5, 2, 0, 3, 4, 8, 8, 0, 0, 1, 1, 9, 0, 1, 1}, {1, 1, 4, 4});
    require_values(nn::MaxPool2d(2)(x), {5, 8, 9, 1}, 0);
    require_values(nn::AvgPool2d(2)(x), {3.25, 4.5, 2.25, 1}, 1e-6);
    CHECK(nn::MaxPool2d(2).parameters().empty());
    CHECK_THROWS_AS(nn::MaxPool2d(0), ValueError);
    CHECK_THROWS_AS(nn::AvgPool2d(2, -1), ValueError);
    CHECK_THROWS_AS(nn::Conv2d(1, 1, 3, 1, 3), ValueError);
}
