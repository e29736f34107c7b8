// Max and average pooling over images, NCHW (autograd/ops/pool2d.h; 004 §15.5.6).
#include "check.h"

using namespace autograd;

namespace {

// rows (1 5 2 0), (3 4 8 8), (0 0 1 1), (9 0 1 1): a tie of 8s, a window of equal 1s.
Tensor four_by_four() {
    return tensor({1, 5, 2, 0, 3, 4, 8, 8, 0, 0, 1, 1, 9, 0, 1, 1}, {1, 1, 4, 4}, Dtype::float64).requires_grad_();
}

}  // namespace

TEST_CASE("max_pool2d by hand: 2x2 windows every 2 pixels, the first maximum takes the gradient", "[forward]") {
    // Windows {1,5,3,4}, {2,0,8,8}, {0,0,9,0}, {1,1,1,1}: y = (5, 8, 9, 1). Of the tied 8s the
    // first in reading order (row 1, column 2) gets the gradient, as does the first of the 1s.
    Tensor x = four_by_four();
    Tensor y = max_pool2d(x, 2);
    CHECK(y.shape() == Shape{1, 1, 2, 2});
    require_values(y, {5, 8, 9, 1}, 0);
    sum(y).backward();
    require_values(x.grad(), {0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0}, 0);
}

TEST_CASE("avg_pool2d by hand: each window's mean, a quarter of the gradient to each pixel", "[forward]") {
    // (1+5+3+4)/4 = 3.25, (2+0+8+8)/4 = 4.5, (0+0+9+0)/4 = 2.25, 1.
    Tensor x = four_by_four();
    Tensor y = avg_pool2d(x, 2);
    require_values(y, {3.25, 4.5, 2.25, 1}, 1e-15);
    sum(y).backward();
    require_values(x.grad(), std::vector<double>(16, 0.25), 1e-15);
}

TEST_CASE("overlapping windows (stride 1) add their gradients", "[forward]") {
    // x = (1 3 2), (0 1 0); 2x2 windows at columns 0 and 1. Both maxima are the 3, which gets 2;
    // avg: (1+3+0+1)/4 = 1.25 and (3+2+1+0)/4 = 1.5, the middle column read twice (0.5 each).
    Tensor x = tensor({1, 3, 2, 0, 1, 0}, {1, 1, 2, 3}, Dtype::float64).requires_grad_();
    Tensor y = max_pool2d(x, 2, 1);
    require_values(y, {3, 3}, 0);
    sum(y).backward();
    require_values(x.grad(), {0, 2, 0, 0, 0, 0}, 0);
    Tensor x2 = x.detach().requires_grad_();
    Tensor a = avg_pool2d(x2, 2, 1);
    require_values(a, {1.25, 1.5}, 1e-15);
    sum(a).backward();
    require_values(x2.grad(), {0.25, 0.5, 0.25, 0.25, 0.5, 0.25}, 1e-15);
}

TEST_CASE("pooling refuses a kernel past the image, a bad stride and a non-image", "[errors]") {
    Tensor x = zeros({1, 1, 3, 4}, Dtype::float64);
    CHECK_THROWS_WITH(max_pool2d(x, 4),
                      Catch::Contains("max_pool2d: needs 0 < kernel <= H, W and stride > 0, got kernel "
                                      "4, stride 4 for x [1, 1, 3, 4]"));
    CHECK_THROWS_AS(avg_pool2d(x, 2, -1), ValueError);
    CHECK_THROWS_AS(avg_pool2d(x, 0), ValueError);
    CHECK_THROWS_WITH(avg_pool2d(zeros({3, 4}), 2), Catch::Contains("avg_pool2d: x must be [B, C, H, W], got [3, 4]"));
}
