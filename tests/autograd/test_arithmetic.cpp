// add, sub, mul, div, neg with NumPy broadcasting and scalar operands.
#include "check.h"

using namespace autograd;

TEST_CASE("binary ops broadcast as NumPy does", "[forward]") {
    Tensor a = tensor({1, 2, 3, 4, 5, 6}, {2, 3});
    Tensor row = tensor({10, 20, 30}, {3});
    Tensor col = tensor({100, 200}, {2, 1});
    require_values(a + row, {11, 22, 33, 14, 25, 36});
    require_values(a - col, {-99, -98, -97, -196, -195, -194});
    require_values(col * tensor({1, 2, 3}, {1, 3}), {100, 200, 300, 200, 400, 600});  // [2,1]*[1,3] -> [2,3]
    require_values(a / row, {0.1, 0.1, 0.1, 0.4, 0.25, 0.2});
    require_values(-a, {-1, -2, -3, -4, -5, -6});
    require_values(a + tensor({1}, {}), {2, 3, 4, 5, 6, 7});  // a [] operand
    Tensor b = (tensor({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {4, 1, 3}) * tensor({1, -1}, {2, 1}));
    CHECK(b.shape() == Shape{4, 2, 3});
    CHECK(b.at({3, 1, 2}) == -12);
}

TEST_CASE("scalar operands", "[forward]") {
    Tensor a = tensor({1, 2, 4}, {3});
    require_values(a + 1.0, {2, 3, 5});
    require_values(1.0 - a, {0, -1, -3});
    require_values(a * 2.0, {2, 4, 8});
    require_values(a / 2.0, {0.5, 1, 2});
    require_values(4.0 / a, {4, 2, 1});
}

TEST_CASE("binary ops reject bad operands naming the op and shapes", "[errors]") {
    Tensor a = zeros({2, 3});
    CHECK_THROWS_AS(a + zeros({4}), ShapeError);
    CHECK_THROWS_WITH(a * zeros({2, 2}), "mul: shapes cannot be broadcast: [2, 3] and [2, 2]");
    CHECK_THROWS_AS(a + zeros({2, 3}, Dtype::float64), DtypeError);
    CHECK_THROWS_WITH(a - zeros({3}, Dtype::int64), Catch::Contains("sub: expected a float32 or float64 tensor"));
    CHECK_THROWS_AS(a / Tensor(), ValueError);
}
