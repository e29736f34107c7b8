// sum, mean, max, argmax, min, argmin, prod, var, std.
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

TEST_CASE("min and argmin take the first minimum, and the gradient goes to it", "[forward]") {
    Tensor x = tensor({3, 1, 2, /**/ 0, 5, 0}, {2, 3}, Dtype::float64).requires_grad_();
    require_values(min(x, 1), {1, 0});
    require_values(argmin(x, 1), {1, 0});  // the first of the two zeros
    require_values(argmin(x, 0, true), {1, 0, 1});
    CHECK(argmin(x, 0, true).shape() == Shape{1, 3});
    sum(min(x, -1) * tensor({2, 3}, Dtype::float64)).backward();
    require_values(x.grad(), {0, 2, 0, 3, 0, 0});
    CHECK_THROWS_AS(min(zeros({2, 0}), 1), ShapeError);
}

TEST_CASE("sum and mean over several dims, in any order, with keepdim", "[forward]") {
    Tensor x = arange(24, Dtype::float64).reshape({2, 3, 4}).detach().requires_grad_();
    // sum over dims 0 and 2 of x[a, b, c] = 12 a + 4 b + c: 8 * 4 b + (0 + 12) * 4 + 2 * 6 = 32 b + 60
    require_values(sum(x, {2, 0}), {60, 92, 124});
    require_values(sum(x, {0, -1}, true), {60, 92, 124});
    CHECK(sum(x, {0, -1}, true).shape() == Shape{1, 3, 1});
    require_values(mean(x, {0, 2}), {7.5, 11.5, 15.5});
    sum(mean(x, {0, 1})).backward();  // each element counts 1/6
    require_values(x.grad(), std::vector<double>(24, 1.0 / 6), 1e-15);
    CHECK_THROWS_WITH(sum(x, {1, -2}), "sum: dims [1, -2] name dim 1 twice");
}

TEST_CASE("prod by hand, and its gradient where a factor is zero", "[forward]") {
    Tensor x = tensor({2, 3, 4, /**/ 5, 0, 2}, {2, 3}, Dtype::float64).requires_grad_();
    require_values(prod(x, 1), {24, 0});
    require_values(prod(x, 0), {10, 0, 8});
    sum(prod(x, 1)).backward();
    // the product of the others: [12, 8, 6] and [0, 10, 0] (no 0 / 0 at the zero)
    require_values(x.grad(), {12, 8, 6, 0, 10, 0});
}

TEST_CASE("var and std by hand: Bessel's correction by default, the population's with 0", "[forward]") {
    // [2, 4, 4, 4, 5, 5, 7, 9]: mean 5, squared deviations sum to 32
    Tensor x = tensor({2, 4, 4, 4, 5, 5, 7, 9}, Dtype::float64).requires_grad_();
    CHECK(var(x).item() == Approx(32.0 / 7).epsilon(1e-15));
    CHECK(var(x, 0, false, 0).item() == Approx(4).epsilon(1e-15));
    CHECK(autograd::std(x, 0, false, 0).item() == Approx(2).epsilon(1e-15));
    CHECK(x.std().item() == Approx(std::sqrt(32.0 / 7)).epsilon(1e-15));
    var(x, 0, false, 0).backward();  // 2 (x - 5) / 8
    require_values(x.grad(), {-0.75, -0.25, -0.25, -0.25, 0, 0, 0.5, 1}, 1e-15);
    x.zero_grad();
    autograd::std(x, 0, false, 0).backward();  // (x - 5) / (8 * 2)
    require_values(x.grad(), {-0.1875, -0.0625, -0.0625, -0.0625, 0, 0, 0.125, 0.25}, 1e-15);
    Tensor rows = tensor({1, 3, /**/ 2, 2}, {2, 2}, Dtype::float64);
    require_values(var(rows, 1, true), {2, 0});
    CHECK_THROWS_WITH(var(tensor({1}, Dtype::float64), 0),
                      "var: 1 elements along dim 0 of [1] leave no degrees of freedom after a correction of 1");
}
