// linear: x W^T + b as one op, against the hand and against matmul and add.
#include "check.h"

using namespace autograd;

TEST_CASE("linear by hand, with and without a bias", "[forward]") {
    Tensor x = tensor({1, 2, 3, 4, 5, 6}, {2, 3});
    Tensor w = tensor({1, 0, -1, 2, 1, 0}, {2, 3});  // rows are the output features
    Tensor b = tensor({10, -10}, {2});
    // [1 2 3] . [1 0 -1] = -2, [1 2 3] . [2 1 0] = 4; [4 5 6]: -2, 13
    require_values(linear(x, w), {-2, 4, -2, 13});
    require_values(linear(x, w, b), {8, -6, 8, 3});
    require_values(linear(tensor({1, 2, 3}, {3}), w, b), {8, -6});  // one vector: [in] -> [out]
}

TEST_CASE("linear equals matmul with W^T plus the bias, over any leading dims", "[forward]") {
    Tensor x = rand64({2, 3, 4}, 1).detach(), w = rand64({5, 4}, 2).detach(), b = rand64({5}, 3).detach();
    Tensor y = linear(x, w, b);
    CHECK(y.shape() == Shape{2, 3, 5});
    require_values(y, (matmul(x, w, false, true) + b).to_vector(), 1e-12);
    CHECK(linear(zeros({0, 4}, Dtype::float64), w, b).shape() == Shape{0, 5});
    require_values(linear(zeros({2, 0}), zeros({3, 0}), tensor({1, 2, 3}, {3})), {1, 2, 3, 1, 2, 3});  // the bias alone
}

TEST_CASE("linear rejects shapes that do not fit", "[errors]") {
    Tensor w = zeros({2, 3});
    CHECK_THROWS_WITH(linear(zeros({4, 5}), w), "linear: input [4, 5] does not end in in_features = 3");
    CHECK_THROWS_WITH(linear(zeros({4, 3}), w, zeros({3})), "linear: bias [3] must be [2] for weight [2, 3]");
    CHECK_THROWS_WITH(linear(zeros({4, 3}), zeros({3})), "linear: weight must be [out, in], got [3]");
    CHECK_THROWS_AS(linear(zeros({4, 3}), zeros({2, 3}, Dtype::float64)), DtypeError);
}
