// The gated linear unit (autograd/ops/glu.h; the conformer's convolution module, 004 §15.5.7).
#include "check.h"

using namespace autograd;

TEST_CASE("glu by hand: the first half gated by the sigmoid of the second, with its gradient", "[forward]") {
    // x = (a | b) = (2, -3 | 0, ln 3): s = sigmoid(b) = (1/2, 3/4), y = a s = (1, -2.25).
    Tensor x = tensor({2, -3, 0, std::log(3.0)}, {1, 4}, Dtype::float64).requires_grad_();
    Tensor y = glu(x);
    require_values(y, {1, -2.25}, 1e-15);
    // d sum(y): da = s = (1/2, 3/4); db = a s (1 - s) = (2 / 4, -3 * 3/16) = (0.5, -0.5625)
    sum(y).backward();
    require_values(x.grad(), {0.5, 0.75, 0.5, -0.5625}, 1e-15);
}

TEST_CASE("glu halves the dim it is given, not only the last", "[forward]") {
    // x [2, 2, 1] on dim 1: a = x[:, 0], b = x[:, 1]; b = 0 gives y = a / 2.
    Tensor x = tensor({4, 0, -6, 0}, {2, 2, 1}, Dtype::float64);
    Tensor y = glu(x, 1);
    CHECK(y.shape() == Shape{2, 1, 1});
    require_values(y, {2, -3}, 1e-15);
}

TEST_CASE("glu refuses an odd dim and a 0-d tensor", "[errors]") {
    CHECK_THROWS_WITH(glu(zeros({2, 3}, Dtype::float64)),
                      Catch::Contains("glu: dim -1 of x [2, 3] must have an even size"));
    REQUIRE_THROWS_AS(glu(zeros({}, Dtype::float64)), ShapeError);
}
