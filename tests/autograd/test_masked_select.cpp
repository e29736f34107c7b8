// Boolean-mask indexing: x[mask] and masked_select, by hand with their gradients.
#include "check.h"

using namespace autograd;

TEST_CASE("x[mask] keeps the rows whose mask is set, and its gradient goes back to them", "[forward]") {
    // x [3, 2], mask over the rows [1, 0, 1]: rows 0 and 2, y [2, 2]
    Tensor x = tensor({1, 2, 3, 4, 5, 6}, {3, 2}, Dtype::float64).requires_grad_();
    Tensor rows = tensor({1, 0, 1}, {3}, Dtype::int64);
    Tensor y = x[rows];
    CHECK(y.shape() == Shape{2, 2});
    require_values(y, {1, 2, 5, 6});
    sum(y * tensor({1, 2, 3, 4}, {2, 2}, Dtype::float64)).backward();
    require_values(x.grad(), {1, 2, 0, 0, 3, 4});
    // a mask of x's full shape gives the elements, 1-D
    Tensor full = tensor({0, 1, 1, 0, 0, 1}, {3, 2}, Dtype::int64);
    require_values(x.index(full), {2, 3, 6});
    CHECK(x[full].shape() == Shape{3});
    // nothing set: an empty [0, 2]
    CHECK(x[zeros({3}, Dtype::int64)].shape() == Shape{0, 2});
}

TEST_CASE("masked_select broadcasts the mask to x and returns the kept elements in order", "[forward]") {
    // x [2, 3], mask [3] = [1, 0, 1] for every row: columns 0 and 2 of both rows
    Tensor x = tensor({1, 2, 3, 4, 5, 6}, {2, 3}, Dtype::float64).requires_grad_();
    Tensor y = masked_select(x, tensor({1, 0, 1}, {3}, Dtype::int64));
    require_values(y, {1, 3, 4, 6});
    sum(y * tensor({1, 2, 3, 4}, Dtype::float64)).backward();
    require_values(x.grad(), {1, 0, 2, 3, 0, 4});
    // the PyTorch idiom x[x > 2], with the comparison's mask made int64
    require_values(x.masked_select(gt(x, full({}, 2, Dtype::float64)).to(Dtype::int64)), {3, 4, 5, 6});
}

TEST_CASE("x[mask] and masked_select refuse a float mask and a mask of the wrong shape", "[errors]") {
    Tensor x = zeros({2, 3});
    CHECK_THROWS_WITH(x[ones({2})],
                      "x[mask]: mask must be int64 (nonzero keeps), got float32 of shape [2]; a "
                      "comparison's mask converts with .to(Dtype::int64)");
    CHECK_THROWS_WITH(x[ones({3}, Dtype::int64)],
                      "x[mask]: mask of shape [3] must have the shape of x's leading dims, x is [2, 3]; for a mask "
                      "that broadcasts, use masked_select");
    CHECK_THROWS_AS(x[ones({2, 3, 1}, Dtype::int64)], ShapeError);
    CHECK_THROWS_WITH(masked_select(x, ones({2}, Dtype::int64)),
                      "masked_select: shapes cannot be broadcast: [2] and [2, 3]");
    CHECK_THROWS_AS(masked_select(x, ones({4, 2, 3}, Dtype::int64)), ShapeError);
}
