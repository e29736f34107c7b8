// select: one index along a dim, which is removed.
#include "check.h"

using namespace autograd;

TEST_CASE("select takes one index along a dim and removes the dim", "[forward]") {
    Tensor x = reshape(arange(24), {2, 3, 4});
    Tensor row = select(x, 1, 2);  // x[:, 2, :]
    CHECK(row.shape() == Shape{2, 4});
    require_values(row, {8, 9, 10, 11, 20, 21, 22, 23});
    require_values(select(x, 0, 1), reshape(narrow(x, 0, 1, 1), {3, 4}).to_vector());
    require_values(select(x, -1, 0), {0, 4, 8, 12, 16, 20});        // the last dim, x[..., 0]
    require_values(select(x, 1, -1), select(x, 1, 2).to_vector());  // -1 is the last index
    CHECK(select(tensor({5, 6, 7}), 0, 1).shape() == Shape{});
    CHECK(select(tensor({5, 6, 7}), 0, 1).item() == 6);
}

TEST_CASE("select's backward puts dy at the index and zeros elsewhere", "[forward]") {
    Tensor x = zeros({2, 3}, Dtype::float64).requires_grad_();
    sum(select(x, 1, 1) * tensor({2, 3}, Dtype::float64)).backward();
    require_values(x.grad(), {0, 2, 0, 0, 3, 0});
}

TEST_CASE("select rejects a dim or an index out of range", "[errors]") {
    Tensor x = zeros({2, 3});
    CHECK_THROWS_WITH(select(x, 1, 3), "select: index 3 is outside [-3, 3) for dim 1 of [2, 3]");
    CHECK_THROWS_AS(select(x, 0, -3), IndexError);
    CHECK_THROWS_WITH(select(x, 2, 0), Catch::Contains("select: dim 2 out of range"));
    CHECK_THROWS_AS(select(zeros({}), 0, 0), IndexError);
    CHECK_THROWS_AS(select(Tensor(), 0, 0), ValueError);
}
