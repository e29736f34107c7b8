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

TEST_CASE("reshape, unsqueeze and squeeze pass gradcheck", "[gradcheck]") {
    Tensor x = rand64({2, 6}, 1);
    Tensor w = rand64({4, 1, 3}, 2).detach();
    REQUIRE_GRADCHECK([w](const std::vector<Tensor>& v) { return reshape(v[0], {4, 1, 3}) * w; }, std::vector{x});
    REQUIRE_GRADCHECK([w](const std::vector<Tensor>& v) { return squeeze(reshape(v[0], {4, 1, 3}) * w, 1); },
                      std::vector{x});
    Tensor row = rand64({1, 3}, 4).detach();
    REQUIRE_GRADCHECK([row](const std::vector<Tensor>& v) { return unsqueeze(v[0], 1) * row; }, std::vector{rand64({3}, 3)});
}

TEST_CASE("reshape rejects element counts that differ", "[errors]") {
    CHECK_THROWS_WITH(reshape(zeros({2, 3}), {4, 2}), Catch::Contains("reshape: cannot reshape [2, 3]"));
    CHECK_THROWS_AS(reshape(zeros({2, 3}), {-1, -1}), ShapeError);
    CHECK_THROWS_AS(reshape(zeros({2, 3}), {4, -1}), ShapeError);
    CHECK_THROWS_AS(squeeze(zeros({2, 3}), 0), ShapeError);
    CHECK_THROWS_AS(unsqueeze(zeros({2}), 3), IndexError);
}
