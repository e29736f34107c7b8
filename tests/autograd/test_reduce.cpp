// sum, mean, max, argmax.
#include "check.h"

using namespace autograd;

TEST_CASE("reductions by hand", "[forward]") {
    Tensor x = tensor({1, 5, 3, 4, 2, 6}, {2, 3});
    CHECK(sum(x).item() == 21);
    CHECK(sum(x).dim() == 0);
    require_values(sum(x, 0), {5, 7, 9});
    require_values(sum(x, -1, true), {9, 12});
    CHECK(sum(x, 1, true).shape() == Shape{2, 1});
    CHECK(mean(x).item() == 3.5);
    require_values(mean(x, 1), {3, 4});
    require_values(max(x, 1), {5, 6});
    require_values(max(x, 0), {4, 5, 6});
    require_values(argmax(x, 1), {1, 2});
    require_values(argmax(tensor({2, 7, 7}), 0), {1});  // the first maximum on ties
}

TEST_CASE("max sends the gradient to the first arg-max only", "[forward]") {
    Tensor x = tensor({3, 1, 3}, {1, 3}, Dtype::float64).requires_grad_();
    sum(max(x, 1)).backward();
    require_values(x.grad(), {1, 0, 0});
}

TEST_CASE("reductions reject dims out of range", "[errors]") {
    CHECK_THROWS_WITH(sum(zeros({2, 3}), 2), Catch::Contains("sum: dim 2 out of range"));
    CHECK_THROWS_AS(max(zeros({2, 3}), -3), IndexError);
    CHECK_THROWS_AS(mean(zeros({2, 0}), 1), ShapeError);
    CHECK_THROWS_AS(argmax(zeros({2}, Dtype::int64), 0), DtypeError);
}

TEST_CASE("squared_norm: by hand, over many blocks, and the same on 1 and 2 threads", "[forward]") {
    CHECK(squared_norm(tensor({3, -4}, {2})) == 25);
    CHECK(squared_norm(zeros({0})) == 0);
    Generator g(2);
    Tensor x = randn({5, 40000}, g);  // 13 blocks of 2^14, the last partial
    double plain = 0;
    for (double v : x.to_vector()) plain += v * v;
    set_num_threads(1);
    const double one = squared_norm(x);
    set_num_threads(2);
    CHECK(one == Approx(plain).epsilon(1e-12));
    CHECK(squared_norm(x) == one);
}
