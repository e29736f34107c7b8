// masked_fill.
#include "check.h"

using namespace autograd;

TEST_CASE("masked_fill writes the value where the mask is set", "[forward]") {
    Tensor x = tensor({1, 2, 3, 4, 5, 6}, {2, 3});
    require_values(masked_fill(x, tensor({0, 1, 0}, {3}, Dtype::int64), -9), {1, -9, 3, 4, -9, 6});
    require_values(masked_fill(x, tensor({1, 0}, {2, 1}, Dtype::int64), 0), {0, 0, 0, 4, 5, 6});
}

TEST_CASE("masked_fill rejects float and unbroadcastable masks", "[errors]") {
    CHECK_THROWS_AS(masked_fill(zeros({2, 3}), zeros({2, 3}), 0), DtypeError);
    CHECK_THROWS_AS(masked_fill(zeros({2, 3}), zeros({4}, Dtype::int64), 0), ShapeError);
    CHECK_THROWS_WITH(masked_fill(zeros({3}), zeros({2, 3}, Dtype::int64), 0),
                      "masked_fill: mask of shape [2, 3] does not broadcast to [3]");
}
