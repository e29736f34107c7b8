// broadcast_to and sum_to: each is the other's backward.
#include "check.h"

using namespace autograd;

TEST_CASE("broadcast_to repeats, sum_to sums back", "[forward]") {
    Tensor x = tensor({1, 2}, {2, 1});
    Tensor y = broadcast_to(x, {2, 2, 3});
    CHECK(y.shape() == Shape{2, 2, 3});
    require_values(y, {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2});
    require_values(sum_to(y, {2, 1}), {6, 12});  // each 1 appears 6 times
    require_values(sum_to(y, {3}), {6, 6, 6});   // 1+2+1+2 per column
}

TEST_CASE("broadcast_to and sum_to reject shapes that do not broadcast", "[errors]") {
    CHECK_THROWS_AS(broadcast_to(zeros({3}), {2, 4}), ShapeError);
    CHECK_THROWS_AS(broadcast_to(zeros({2, 3}), {3}), ShapeError);
    CHECK_THROWS_AS(sum_to(zeros({2, 3}), {4}), ShapeError);
}
