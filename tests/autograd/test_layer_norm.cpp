// layer_norm over the last dim (003's formula).
#include "check.h"

using namespace autograd;

TEST_CASE("layer_norm by hand", "[forward]") {
    // [1, 2, 3, 4]: mu = 2.5, v = (2.25 + 0.25 + 0.25 + 2.25) / 4 = 1.25, a_hat = (a - 2.5) / sqrt(1.25)
    Tensor x = tensor({1, 2, 3, 4}, {1, 4}, Dtype::float64);
    double r = 1 / std::sqrt(1.25);
    require_values(layer_norm(x, ones({4}, Dtype::float64), zeros({4}, Dtype::float64), 0.0),
                   {-1.5 * r, -0.5 * r, 0.5 * r, 1.5 * r}, 1e-12);
    // gamma scales and beta shifts each feature
    require_values(layer_norm(x, full({4}, 2.0, Dtype::float64), full({4}, 1.0, Dtype::float64), 0.0),
                   {1 - 3 * r, 1 - r, 1 + r, 1 + 3 * r}, 1e-12);
    // eps sits inside the square root: a constant row normalises to 0, not NaN
    require_values(layer_norm(full({2, 3}, 7.0), ones({3}), zeros({3}), 1e-5), {0, 0, 0, 0, 0, 0});
}

TEST_CASE("layer_norm rejects gamma and beta of the wrong size", "[errors]") {
    CHECK_THROWS_WITH(layer_norm(zeros({2, 4}), ones({3}), zeros({4})),
                      Catch::Contains("layer_norm: gamma [3] and beta [4] must both be [4]"));
    CHECK_THROWS_AS(layer_norm(zeros({}), ones({1}), zeros({1})), ShapeError);
    CHECK_THROWS_AS(layer_norm(zeros({2, 4}), ones({4}, Dtype::float64), zeros({4})), DtypeError);
}

// float32 rows of a multiple of eight take the kernel with its vectors written out
// (kernels/layer_norm_row.h); the gradient checks run in float64, which never does, and on shapes too
// small to split the rows between threads, whose dgamma and dbeta parts are added after.
// So float64 on one thread is the reference here for float64 and float32 on two: the output
// and all three gradients, with gamma and beta not 1 and 0.
TEST_CASE("layer_norm in float32 and on 2 threads agrees with float64 on 1, values and gradients", "[forward]") {
    Generator gen(11);
    for (std::int64_t D : {8, 16, 64, 12, 5}) {
        INFO("D = " << D);
        const std::int64_t rows = 8192 / D + 7;  // enough for two parts at every D (autograd/parallel.h)
        const Tensor x = randn({rows, D}, gen, Dtype::float64), gamma = randn({D}, gen, Dtype::float64);
        const Tensor beta = randn({D}, gen, Dtype::float64), dy = randn({rows, D}, gen, Dtype::float64);
        auto run = [&](Dtype dtype, int threads) {
            set_num_threads(threads);
            Tensor xs = x.to(dtype).requires_grad_(), g = gamma.to(dtype).requires_grad_();
            Tensor b = beta.to(dtype).requires_grad_();
            Tensor y = layer_norm(xs, g, b, 1e-5);
            y.backward(dy.to(dtype));
            return std::vector{y.to_vector(), xs.grad().to_vector(), g.grad().to_vector(), b.grad().to_vector()};
        };
        const auto reference = run(Dtype::float64, 1), f64 = run(Dtype::float64, 2), f32 = run(Dtype::float32, 2);
        set_num_threads(2);
        for (std::size_t i = 0; i < reference.size(); ++i) {
            INFO("output " << i << " (y, dx, dgamma, dbeta)");
            for (std::size_t j = 0; j < reference[i].size(); ++j) {
                REQUIRE(f64[i][j] == Approx(reference[i][j]).margin(1e-12).epsilon(1e-12));
                REQUIRE(f32[i][j] == Approx(reference[i][j]).margin(5e-5).epsilon(1e-5));
            }
        }
    }
}
