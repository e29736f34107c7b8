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

TEST_CASE("linear's products split over 2 threads give 1 thread's values and gradients", "[forward]") {
    // Large enough that each product is split by rows over the threads (autograd/kernels/gemm.h):
    // y = x W^T (B transposed), dx = dy W (neither); and dW = dy^T x with db beside it, split
    // by x's rows, the parts added after (linear.cpp). A part at a wrong offset, or one left
    // out, would be off by whole values; BLAS may round the parts' sums differently.
    Generator g(4);
    Tensor x = randn({3, 200, 96}, g).requires_grad_(), w = randn({160, 96}, g).requires_grad_();
    Tensor b = randn({160}, g).requires_grad_();
    for (bool with_bias : {true, false}) {
        INFO("with a bias: " << with_bias);
        auto run = [&](int threads) {
            set_num_threads(threads);
            for (Tensor t : {x, w, b}) t.zero_grad();
            Tensor y = with_bias ? linear(x, w, b) : linear(x, w);
            sum(y * y).backward();
            std::vector out{y.to_vector(), x.grad().to_vector(), w.grad().to_vector()};
            if (with_bias) out.push_back(b.grad().to_vector());
            return out;
        };
        const auto one = run(1);
        const auto two = run(2);
        set_num_threads(2);
        for (std::size_t i = 0; i < one.size(); ++i) {
            INFO("output " << i << " (y, dx, dw, db)");
            REQUIRE(two[i].size() == one[i].size());
            for (std::size_t j = 0; j < one[i].size(); ++j)
                REQUIRE(two[i][j] == Approx(one[i][j]).epsilon(1e-5).margin(1e-3));
        }
    }
}

TEST_CASE("linear rejects shapes that do not fit", "[errors]") {
    Tensor w = zeros({2, 3});
    CHECK_THROWS_WITH(linear(zeros({4, 5}), w), "linear: input [4, 5] does not end in in_features = 3");
    CHECK_THROWS_WITH(linear(zeros({4, 3}), w, zeros({3})), "linear: bias [3] must be [2] for weight [2, 3]");
    CHECK_THROWS_WITH(linear(zeros({4, 3}), zeros({3})), "linear: weight must be [out, in], got [3]");
    CHECK_THROWS_AS(linear(zeros({4, 3}), zeros({2, 3}, Dtype::float64)), DtypeError);
}
