// FeedForward: w_2(phi(w_1 x)), ReLU or GELU.
#include <cmath>

#include "check.h"
#include "lectern/nn/feed_forward.h"

using namespace autograd;

TEST_CASE("FeedForward computes relu(x W1^T + b1) W2^T + b2 by hand", "[module]") {
    nn::FeedForward ff(2, 2);
    {
        NoGradGuard g;
        ff.w_1->weight.copy_(tensor({1, 0, 0, -1}, {2, 2}));
        ff.w_1->bias.fill_(0);
        ff.w_2->weight.copy_(tensor({1, 1, 2, 0}, {2, 2}));
        ff.w_2->bias.fill_(1);
    }
    // x = [3, 4]: h = relu([3, -4]) = [3, 0]; y = [3 + 0 + 1, 6 + 0 + 1]
    require_values(ff(tensor({3, 4}, {1, 2})), {4, 7});
}

TEST_CASE("feed-forward dropout acts on the hidden units, between phi and W_2 (001 PositionwiseFeedForward)",
          "[module]") {
    // d_model 1, d_ff 3: W_1 = [1, 10, 100]^T, W_2 = [1, 1, 1], no biases, so for x = 1 the hidden
    // units are h = [1, 10, 100] and y = 2 (sum of the kept h) with p = 0.5: one digit per hidden
    // unit, each 0 or 1. Dropout on the input or on the output would give only 0 or 222.
    manual_seed(3);
    nn::FeedForward ff(1, 3, 0.5);
    ff.to(Dtype::float64);
    {
        NoGradGuard g;
        ff.w_1->weight.copy_(tensor({1, 10, 100}, {3, 1}, Dtype::float64));
        ff.w_2->weight.fill_(1);
        ff.w_1->bias.fill_(0), ff.w_2->bias.fill_(0);
    }
    bool partial = false;
    for (double y : ff(ones({16, 1}, Dtype::float64)).to_vector()) {
        long digits = std::lround(y / 2);
        CHECK(std::abs(y - 2.0 * digits) < 1e-12);
        CHECK((digits % 10 <= 1 && digits / 10 % 10 <= 1 && digits / 100 <= 1));
        partial = partial || (digits != 0 && digits != 111);
    }
    CHECK(partial);
    ff.eval();
    require_values(ff(ones({1, 1}, Dtype::float64)), {111}, 1e-12);
}
