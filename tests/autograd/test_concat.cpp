// concat, narrow and stack.
#include "check.h"

using namespace autograd;

TEST_CASE("concat joins along a dim and narrow cuts it back out", "[forward]") {
    Tensor a = tensor({1, 2, 3, 4}, {2, 2}), b = tensor({5, 6}, {2, 1});
    Tensor c = concat({a, b}, 1);
    require_values(c, {1, 2, 5, 3, 4, 6});
    require_values(narrow(c, 1, 1, 2), {2, 5, 4, 6});
    require_values(concat({a, a}, 0), {1, 2, 3, 4, 1, 2, 3, 4});
}

TEST_CASE("concat and narrow reject bad shapes and ranges", "[errors]") {
    CHECK_THROWS_AS(concat({}, 0), ValueError);
    CHECK_THROWS_WITH(concat({zeros({2, 2}), zeros({3, 2})}, 1), Catch::Contains("concat: shapes [2, 2] and [3, 2]"));
    CHECK_THROWS_AS(concat({zeros({2}), zeros({2}, Dtype::float64)}, 0), DtypeError);
    CHECK_THROWS_AS(narrow(zeros({4}), 0, 3, 2), IndexError);
}

TEST_CASE("stack joins tensors of one shape along a new dim, and hands each its slice of dy", "[forward]") {
    Tensor a = tensor({1, 2}, Dtype::float64).requires_grad_(), b = tensor({3, 4}, Dtype::float64).requires_grad_(),
           c = tensor({5, 6}, Dtype::float64);
    Tensor rows = stack({a, b, c}, 0);
    CHECK(rows.shape() == Shape{3, 2});
    require_values(rows, {1, 2, 3, 4, 5, 6});
    Tensor cols = stack({a, b, c}, -1);  // dim 1 of the [2, 3] result
    CHECK(cols.shape() == Shape{2, 3});
    require_values(cols, {1, 3, 5, 2, 4, 6});
    cols.backward(tensor({1, 2, 3, 4, 5, 6}, {2, 3}, Dtype::float64));
    require_values(a.grad(), {1, 4});  // column 0 of dy
    require_values(b.grad(), {2, 5});  // column 1
}

TEST_CASE("stack refuses no tensors, tensors of two shapes and a dim past the new rank", "[errors]") {
    CHECK_THROWS_AS(stack({}, 0), ValueError);
    CHECK_THROWS_WITH(stack({zeros({2, 3}), zeros({3, 2})}, 0),
                      "stack: shapes [2, 3] and [3, 2] differ (stack joins tensors of one shape)");
    CHECK_THROWS_AS(stack({zeros({2}), zeros({2})}, 2), IndexError);
}
