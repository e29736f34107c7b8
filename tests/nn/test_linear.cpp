// Linear: y = x W^T + b.
#include "check.h"
#include "lectern/nn/linear.h"

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
}

// PyTorch's F.linear takes a single vector: [in] -> [out], and its gradients are those of
// the row [1, in]: dx = dy W, dW = dy^T x, db = dy.
TEST_CASE("Linear maps a vector of in_features to out_features, as F.linear does, with its gradients", "[module]") {
    nn::Linear lin(2, 3);
    {
        NoGradGuard g;
        lin.weight.copy_(tensor({1, 2, 3, 4, 5, 6}, {3, 2}));
        lin.bias.copy_(tensor({10, 20, 30}, {3}));
    }
    Tensor x = tensor({1, -1}, {2}).requires_grad_();
    Tensor y = lin(x);
    CHECK(y.shape() == Shape{3});
    require_values(y, {9, 19, 29});                            // [1 - 2, 3 - 4, 5 - 6] + b
    (y * tensor({1, 2, 3}, {3})).sum().backward();             // dy = [1, 2, 3]
    require_values(x.grad(), {1 + 6 + 15, 2 + 8 + 18});        // dy W
    require_values(lin.weight.grad(), {1, -1, 2, -2, 3, -3});  // dy^T x
    require_values(lin.bias.grad(), {1, 2, 3});
    CHECK_THROWS_WITH(lin(zeros({5})), "linear: input [5] does not end in in_features = 2");
}

TEST_CASE("Linear rejects inputs of the wrong width", "[errors]") {
    nn::Linear lin(4, 3);
    CHECK_THROWS_WITH(lin(zeros({2, 5})), "linear: input [2, 5] does not end in in_features = 4");
    CHECK_THROWS_AS(nn::Linear(0, 3), ValueError);
}
