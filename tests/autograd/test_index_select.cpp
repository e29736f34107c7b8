// index_select: the embedding lookup, with scatter-add backward.
#include "check.h"

using namespace autograd;

TEST_CASE("index_select picks rows by id, for any index shape", "[forward]") {
    Tensor w = tensor({0, 1, 10, 11, 20, 21}, {3, 2});  // 3 tokens, d = 2
    Tensor ids = tensor({2, 0, 2, 1}, {2, 2}, Dtype::int64);
    Tensor e = index_select(w, 0, ids);
    CHECK(e.shape() == Shape{2, 2, 2});
    require_values(e, {20, 21, 0, 1, 20, 21, 10, 11});
    require_values(index_select(w, 1, tensor({1}, Dtype::int64)), {1, 11, 21});
}

TEST_CASE("index_select backward adds the gradient of a row picked twice", "[forward]") {
    Tensor w = zeros({3, 2}, Dtype::float64).requires_grad_();
    sum(index_select(w, 0, tensor({2, 2, 0}, Dtype::int64))).backward();
    require_values(w.grad(), {1, 1, 0, 0, 2, 2});
}

TEST_CASE("index_select rejects ids out of range", "[errors]") {
    Tensor w = zeros({3, 2});
    CHECK_THROWS_WITH(index_select(w, 0, tensor({0, 3}, Dtype::int64)),
                      Catch::Contains("index_select: index 3 at position 1 is outside [0, 3)"));
    CHECK_THROWS_AS(index_select(w, 0, tensor({-1}, Dtype::int64)), IndexError);
    CHECK_THROWS_AS(index_select(w, 0, tensor({0})), DtypeError);
}
