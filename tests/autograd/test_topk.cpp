// topk: the k largest or smallest along a dim, by hand with the gradient.
#include <cmath>
#include <limits>

#include "check.h"

using namespace autograd;

TEST_CASE("topk gives the k largest along a dim, sorted, and the gradient lands at their places", "[forward]") {
    // rows [3, 1, 4, 1] and [5, 9, 2, 6]: top 2 are 4, 3 (at 2, 0) and 9, 6 (at 1, 3)
    Tensor x = tensor({3, 1, 4, 1, 5, 9, 2, 6}, {2, 4}, Dtype::float64).requires_grad_();
    auto [values, indices] = topk(x, 2);
    CHECK(values.shape() == Shape{2, 2});
    require_values(values, {4, 3, 9, 6});
    require_values(indices, {2, 0, 1, 3});
    CHECK(indices.dtype() == Dtype::int64);
    sum(values * tensor({1, 2, 3, 4}, {2, 2}, Dtype::float64)).backward();
    require_values(x.grad(), {2, 0, 1, 0, 0, 3, 0, 4});
    // the smallest, along dim 0 of [2, 4]: the column's smaller entry first; equal values in index order
    auto smallest = x.topk(1, 0, /*largest=*/false);
    require_values(smallest.values, {3, 1, 2, 1});
    require_values(smallest.indices, {0, 0, 1, 0});
    require_values(topk(tensor({1, 1, 1}), 2).indices, {0, 1});
    CHECK(topk(x, 0).values.shape() == Shape{2, 0});
}

TEST_CASE("topk ranks NaN above every number, as PyTorch does", "[forward]") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    Tensor x = tensor({1, nan, 3, nan}, Dtype::float64);
    require_values(topk(x, 1).indices, {1});
    require_values(topk(x, 2, 0, false).indices, {0, 2});
    require_values(topk(x, 4, 0, false).indices, {0, 2, 1, 3});
}

TEST_CASE("topk refuses a k outside [0, size] and a bad dim", "[errors]") {
    Tensor x = zeros({2, 3});
    CHECK_THROWS_WITH(topk(x, 4), "topk: k = 4 is outside [0, 3], the size of dim 1 of [2, 3]");
    CHECK_THROWS_AS(topk(x, -1), ValueError);
    CHECK_THROWS_AS(topk(x, 1, 2), IndexError);
    CHECK_THROWS_AS(topk(zeros({3}, Dtype::int64), 1), DtypeError);
}
