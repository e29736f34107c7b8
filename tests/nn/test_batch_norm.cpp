// nn::BatchNorm1d (lectern/nn/batch_norm.h; 003's remarks on batch against layer normalisation).
#include <cmath>

#include "check.h"
#include "lectern/nn/batch_norm.h"

using namespace autograd;

namespace {

// Four rows of two features: feature 0 = (0, 0, 2, 2), feature 1 = 5 throughout.
Tensor four_rows() { return tensor({0, 5, 0, 5, 2, 5, 2, 5}, {4, 2}, Dtype::float64); }

}  // namespace

TEST_CASE("BatchNorm1d by hand in training: the batch's biased variance inside the root, eps beside it", "[module]") {
    // Feature 0: mu = 1, v = mean((-1, -1, 1, 1)^2) = 1 (biased); with eps = 3,
    // y = (a - 1) / sqrt(1 + 3) = (-0.5, -0.5, 0.5, 0.5). Feature 1: mu = 5, v = 0, y = 0.
    nn::BatchNorm1d bn(2, /*eps=*/3, /*momentum=*/0.1);
    bn.to(Dtype::float64);
    Tensor x = four_rows().requires_grad_();
    Tensor y = bn(x);
    require_values(y, {-0.5, 0, -0.5, 0, 0.5, 0, 0.5, 0}, 1e-15);
    // The running statistics take a tenth of the batch's, the variance unbiased (4 / 3 for
    // feature 0, 0 for feature 1): mean (0.1, 0.5), var (0.9 + 0.1 4/3, 0.9).
    require_values(bn.running_mean, {0.1, 0.5}, 1e-15);
    require_values(bn.running_var, {0.9 + 0.4 / 3, 0.9}, 1e-15);
    // sum(y) does not move when a feature shifts: the batch mean takes the shift back out.
    // So dx = 0; dbeta = 4 rows, dgamma = sum of a_hat = (0, 0).
    sum(y).backward();
    require_values(x.grad(), std::vector<double>(8, 0), 1e-15);
    require_values(bn.beta.grad(), {4, 4}, 1e-15);
    require_values(bn.gamma.grad(), {0, 0}, 1e-15);
}

TEST_CASE("BatchNorm1d by hand in evaluation: the running statistics, and the gap to training", "[module]") {
    nn::BatchNorm1d bn(2, 3, 0.1);
    bn.to(Dtype::float64);
    bn(four_rows());  // one training step: running mean (0.1, 0.5), var (0.9 + 0.4 / 3, 0.9)
    bn.eval();
    Tensor x = four_rows().requires_grad_();
    Tensor y = bn(x);
    const double r0 = 1 / std::sqrt(0.9 + 0.4 / 3 + 3), r1 = 1 / std::sqrt(0.9 + 3);
    // y = (a - running_mean) / sqrt(running_var + eps): far from training's (-0.5, 0, ...).
    require_values(y, {-0.1 * r0, 4.5 * r1, -0.1 * r0, 4.5 * r1, 1.9 * r0, 4.5 * r1, 1.9 * r0, 4.5 * r1}, 1e-15);
    // Each position alone now: dx = 1 / sqrt(running_var + eps), and the buffers stay put.
    sum(y).backward();
    require_values(x.grad(), {r0, r1, r0, r1, r0, r1, r0, r1}, 1e-15);
    require_values(bn.running_mean, {0.1, 0.5}, 1e-15);
}

TEST_CASE("BatchNorm1d over [B, T, D] with a mask takes its statistics over the real positions only", "[module]") {
    // One sequence (0, 2, 100), the 100 a pad: mu = 1, v = 1 over the two real positions, and
    // every position normalised by them: ((0 - 1), (2 - 1), (100 - 1)) / sqrt(1 + 3).
    nn::BatchNorm1d bn(1, 3, 0.1, /*affine=*/false);
    bn.to(Dtype::float64);
    Tensor x = tensor({0, 2, 100}, {1, 3, 1}, Dtype::float64);
    Tensor mask = tensor({1, 1, 0}, {1, 3}, Dtype::float64);
    require_values(bn(x, mask), {-0.5, 0.5, 49.5}, 1e-13);
    require_values(bn.running_mean, {0.1}, 1e-15);
    require_values(bn.running_var, {0.9 + 0.1 * 2}, 1e-15);  // unbiased over n = 2: 2
    // Without the mask the pad moves the statistics: mu = 34, v = (34^2 + 32^2 + 66^2) / 3.
    nn::BatchNorm1d polluted(1, 3, 0.1, false);
    polluted.to(Dtype::float64);
    const double v = (34.0 * 34 + 32 * 32 + 66 * 66) / 3;
    require_values(polluted(x), {-34 / std::sqrt(v + 3), -32 / std::sqrt(v + 3), 66 / std::sqrt(v + 3)}, 1e-13);
}

TEST_CASE("BatchNorm1d keeps its running statistics as saved buffers, not parameters", "[module][io]") {
    nn::BatchNorm1d bn(3);
    CHECK(bn.parameters().size() == 2);  // gamma, beta
    auto buffers = bn.named_buffers();
    REQUIRE(buffers.size() == 2);
    CHECK(buffers[0].first == "running_mean");
    CHECK(buffers[1].first == "running_var");
    Generator gen(1);
    bn(randn({8, 3}, gen));
    nn::StateDict dict = bn.state_dict();
    CHECK(dict.size() == 4);
    nn::BatchNorm1d fresh(3);
    fresh.load_state_dict(dict);
    CHECK(fresh.running_mean.to_vector() == bn.running_mean.to_vector());
    CHECK(fresh.running_var.to_vector() == bn.running_var.to_vector());
    nn::StateDict without = dict;
    without.erase("running_var");
    CHECK_THROWS_WITH(fresh.load_state_dict(without), Catch::Contains("missing running_var"));
}

TEST_CASE("BatchNorm1d refuses a wrong width, a mask of the wrong shape and a batch of one row", "[errors]") {
    nn::BatchNorm1d bn(3);
    CHECK_THROWS_WITH(bn(zeros({2, 4})), Catch::Contains("BatchNorm1d: x must be [B, 3] or [B, T, 3], got [2, 4]"));
    CHECK_THROWS_AS(bn(zeros({2, 5, 3}), zeros({2, 4})), ShapeError);
    CHECK_THROWS_AS(bn(zeros({2, 3}), zeros({2, 1})), ShapeError);
    CHECK_THROWS_WITH(bn(zeros({1, 3})), Catch::Contains("BatchNorm1d: training needs 2 or more rows"));
    CHECK_THROWS_AS(bn(zeros({1, 2, 3}), tensor({1, 0}, {1, 2})), ValueError);
    CHECK_THROWS_WITH(bn(zeros({1, 2, 3}), tensor({1, 2}, {1, 2})),
                      Catch::Contains("BatchNorm1d: the mask [1, 2] must hold 1 at a real position and 0 at a pad, "
                                      "found 2"));
    bn.eval();
    CHECK(bn(zeros({1, 3})).shape() == Shape{1, 3});  // evaluation needs no batch statistics
    CHECK_THROWS_AS(nn::BatchNorm1d(3, 1e-5, 1.5), ValueError);
}
