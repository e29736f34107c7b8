// FeedForward: w_2(phi(w_1 x)), ReLU or GELU.
#include "check.h"
#include "nn/feed_forward.h"

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
