// concat and narrow.
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
