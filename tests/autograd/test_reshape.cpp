// reshape, unsqueeze, squeeze: the same elements in another shape.
#include "check.h"

using namespace autograd;

TEST_CASE("reshape keeps row-major order and infers -1", "[forward]") {
    Tensor x = arange(6);
    Tensor y = reshape(x, {2, -1});
    CHECK(y.shape() == Shape{2, 3});
    CHECK(y.at({1, 0}) == 3);
    CHECK(unsqueeze(y, 1).shape() == Shape{2, 1, 3});
    CHECK(unsqueeze(y, -1).shape() == Shape{2, 3, 1});
    CHECK(squeeze(unsqueeze(y, 0), 0).shape() == Shape{2, 3});
}

TEST_CASE("reshape rejects element counts that differ", "[errors]") {
    CHECK_THROWS_WITH(reshape(zeros({2, 3}), {4, 2}), Catch::Contains("reshape: cannot reshape [2, 3]"));
    CHECK_THROWS_AS(reshape(zeros({2, 3}), {-1, -1}), ShapeError);
    CHECK_THROWS_AS(reshape(zeros({2, 3}), {4, -1}), ShapeError);
    CHECK_THROWS_AS(squeeze(zeros({2, 3}), 0), ShapeError);
    CHECK_THROWS_AS(unsqueeze(zeros({2}), 3), IndexError);
}
