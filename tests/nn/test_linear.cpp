// Linear: y = x W^T + b.
#include "check.h"
#include "nn/linear.h"

using namespace autograd;

TEST_CASE("Linear computes x W^T + b by hand", "[module]") {
    nn::Linear lin(2, 3);
    {
        NoGradGuard g;
        lin.weight.copy_(tensor({1, 2, 3, 4, 5, 6}, {3, 2}));
        lin.bias.copy_(tensor({10, 20, 30}, {3}));
    }
    // [1, 1] W^T = [1+2, 3+4, 5+6]
    require_values(lin(tensor({1, 1}, {1, 2})), {13, 27, 41});
    CHECK(lin(zeros({4, 5, 2})).shape() == Shape{4, 5, 3});
    CHECK(lin(zeros({2})).shape() == Shape{3});
}

TEST_CASE("Linear rejects inputs of the wrong width", "[errors]") {
    nn::Linear lin(4, 3);
    CHECK_THROWS_WITH(lin(zeros({2, 5})), "linear: input [2, 5] does not end in in_features = 4");
    CHECK_THROWS_AS(nn::Linear(0, 3), ValueError);
}
