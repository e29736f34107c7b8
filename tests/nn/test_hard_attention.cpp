// Hard attention (004 §15.4.7) and the score-function estimator that trains its scores
// (nn/reinforce.h): g = (r(z) - b)(onehot(z) - p) for one draw z ~ p = softmax(s).
#include <cmath>

#include "check.h"
#include "lectern/nn/hard_attention.h"
#include "lectern/nn/reinforce.h"

using namespace autograd;

TEST_CASE("hard attention by hand: the glimpse v_z, log p(z), and the estimator's gradient (004 §15.4.7)", "[module]") {
    // Row 0: s = (0, ln 2, 0), so p = (1/4, 1/2, 1/4); z = 1, reward 1. Row 1: s = 0, p = 1/3 each;
    // z = 2, reward 0. Baseline b = 1/4, so r - b = 3/4 and -1/4.
    Tensor s = tensor({0, std::log(2.0), 0, 0, 0, 0}, {2, 3}, Dtype::float64).requires_grad_();
    Tensor v = tensor({1, 0, 0, 1, 1, 1, 2, 0, 0, 2, 2, 2}, {2, 3, 2}, Dtype::float64).requires_grad_();
    nn::Glimpse g = nn::glimpse(s, v, tensor({1, 2}, {2}, Dtype::int64));
    require_values(g.value, {0, 1, 2, 2}, 1e-15);  // v_{0,1} and v_{1,2}
    require_values(g.log_prob, {std::log(0.5), std::log(1.0 / 3)}, 1e-15);

    // L = -(1/2) [(3/4) ln(1/2) + (-1/4) ln(1/3)] = -(1/2) [-0.51986 + 0.27465] = 0.12260
    Tensor loss = nn::reinforce_loss(g.log_prob, tensor({1, 0}, {2}, Dtype::float64), 0.25);
    require_values(loss, {-0.5 * (0.75 * std::log(0.5) - 0.25 * std::log(1.0 / 3))}, 1e-15);
    REQUIRE(std::abs(loss.item() - 0.1226036) < 1e-7);
    (loss + sum(g.value * tensor({1, 10, 100, 1000}, {2, 2}, Dtype::float64))).backward();
    // dL/ds_b = -(1/B)(r_b - b)(onehot(z_b) - p_b):
    //   row 0: -(1/2)(3/4)(-1/4, 1/2, -1/4) = (3/32, -3/16, 3/32)
    //   row 1: -(1/2)(-1/4)(-1/3, -1/3, 2/3) = (-1/24, -1/24, 1/12)
    require_values(s.grad(), {3.0 / 32, -3.0 / 16, 3.0 / 32, -1.0 / 24, -1.0 / 24, 1.0 / 12}, 1e-15);
    // Backprop reaches the values at the chosen locations only (dc/dv_z = 1).
    require_values(v.grad(), {0, 0, 1, 10, 0, 0, 0, 0, 0, 0, 100, 1000}, 1e-15);
}

TEST_CASE("the score-function estimate averages to the exact gradient of the expected reward (004 §15.4.7)",
          "[module]") {
    // Three locations, s = (0.3, -0.5, 1.0), and a reward for each, r = (1, 0, 3). Enumerating the
    // three choices, E[r] = sum_z p_z r_z and its exact gradient is dE[r]/ds_t = p_t (r_t - E[r]).
    const std::vector<double> s_values = {0.3, -0.5, 1.0}, r = {1, 0, 3};
    std::vector<double> p(3), exact(3);
    double z_sum = 0, expected_reward = 0;
    for (double x : s_values) z_sum += std::exp(x);
    for (std::size_t t = 0; t < 3; ++t) p[t] = std::exp(s_values[t]) / z_sum, expected_reward += p[t] * r[t];
    for (std::size_t t = 0; t < 3; ++t) exact[t] = p[t] * (r[t] - expected_reward);  // (-0.2984, -0.2638, 0.5621)
    // N = 100000 draws as one batch of rows sharing s; -dL/ds is then the mean of the N estimates
    // (r(z_n) - b)(onehot(z_n) - p). Each component's standard deviation across draws is at most
    // max |r - b| = 3, so the mean's standard error is below 0.0095, and 0.03 is over 3 of them.
    // With and without a baseline (both unbiased: the baseline moves no mean).
    const std::int64_t N = 100000;
    for (double baseline : {0.0, 1.5}) {
        Generator gen(2024);
        Tensor s = tensor(s_values, {1, 3}, Dtype::float64).requires_grad_();
        Tensor rows = broadcast_to(s, {N, 3});
        Tensor values = zeros({N, 3, 1}, Dtype::float64);
        nn::Glimpse g = nn::hard_attention(rows, values, gen);
        std::vector<double> reward(static_cast<std::size_t>(N));
        for (std::int64_t n = 0; n < N; ++n)
            reward[static_cast<std::size_t>(n)] = r[static_cast<std::size_t>(g.chosen.data<std::int64_t>()[n])];
        nn::reinforce_loss(g.log_prob, tensor(reward, {N}, Dtype::float64), baseline).backward();
        const std::vector<double> estimate = (-s.grad()).to_vector();
        INFO("baseline " << baseline);
        for (std::size_t t = 0; t < 3; ++t) {
            INFO("location " << t << ": estimate " << estimate[t] << ", exact " << exact[t]);
            REQUIRE(std::abs(estimate[t] - exact[t]) < 0.03);
        }
    }
}

TEST_CASE("the estimate's variance by hand, and against the spread of 200000 draws (004 §15.4.7)", "[module]") {
    // p = (1/4, 1/2, 1/4), r = (1, 0, 3), so E[r] = r_bar = 1. With b = 1:
    //   g(0) = 0;  g(1) = -1 (-1/4, 1/2, -1/4), |g|^2 = 3/8;  g(2) = 2 (-1/4, -1/2, 3/4), |g|^2 = 7/2;
    //   E|g|^2 = (1/2)(3/8) + (1/4)(7/2) = 17/16;  E g = p_t (r_t - r_bar) = (0, -1/2, 1/2), |E g|^2 = 1/2;
    //   Var = 17/16 - 1/2 = 9/16.
    // With b = 0: E|g|^2 = (1/4)(1)(7/8) + (1/4)(9)(7/8) = 35/16, and Var = 35/16 - 1/2 = 27/16: the
    // baseline at E[r] cuts the variance to a third.
    const std::vector<double> p = {0.25, 0.5, 0.25}, r = {1, 0, 3};
    REQUIRE(std::abs(nn::score_function_variance(p, r, 1.0) - 9.0 / 16) < 1e-15);
    REQUIRE(std::abs(nn::score_function_variance(p, r, 0.0) - 27.0 / 16) < 1e-15);
    REQUIRE_THROWS_AS(nn::score_function_variance(p, {1, 0}, 0.0), ValueError);

    // The same from the estimator itself: N rows of one draw each, g_n = -N dL/ds_n read off the
    // backward of reinforce_loss, and the spread of the g_n summed over the components. Its
    // relative standard error at N = 200000 is under 1%; 4% is the tolerance.
    const std::int64_t N = 200000;
    for (double baseline : {0.0, 1.0}) {
        Generator gen(77);
        Tensor s = broadcast_to(tensor({0, std::log(2.0), 0}, {1, 3}, Dtype::float64), {N, 3}).clone().requires_grad_();
        nn::Glimpse g = nn::hard_attention(s, zeros({N, 3, 1}, Dtype::float64), gen);
        std::vector<double> reward(static_cast<std::size_t>(N));
        for (std::int64_t n = 0; n < N; ++n)
            reward[static_cast<std::size_t>(n)] = r[static_cast<std::size_t>(g.chosen.data<std::int64_t>()[n])];
        nn::reinforce_loss(g.log_prob, tensor(reward, {N}, Dtype::float64), baseline).backward();
        const std::vector<double> grad = s.grad().to_vector();
        double mean[3] = {0, 0, 0}, square = 0;
        for (std::int64_t n = 0; n < N; ++n)
            for (std::size_t t = 0; t < 3; ++t) {
                const double g_nt = -static_cast<double>(N) * grad[static_cast<std::size_t>(n) * 3 + t];
                mean[t] += g_nt / static_cast<double>(N), square += g_nt * g_nt / static_cast<double>(N);
            }
        const double spread = square - (mean[0] * mean[0] + mean[1] * mean[1] + mean[2] * mean[2]);
        const double exact = nn::score_function_variance(p, r, baseline);
        INFO("baseline " << baseline << ": the draws' variance " << spread << ", exact " << exact);
        REQUIRE(std::abs(spread - exact) < 0.04 * exact);
    }
}

TEST_CASE("the moving-average baseline follows the batches' mean reward, first batch first", "[module]") {
    nn::MovingAverageBaseline b(0.9);
    REQUIRE(b.value() == 0);
    b.update(tensor({0, 2}, {2}, Dtype::float64));  // b = 1, the first batch's mean
    REQUIRE(b.value() == 1);
    b.update(tensor({2, 2}, {2}, Dtype::float64));  // b = 0.9 * 1 + 0.1 * 2 = 1.1
    REQUIRE(std::abs(b.value() - 1.1) < 1e-15);
    REQUIRE_THROWS_AS(nn::MovingAverageBaseline(1.0), ValueError);
}

TEST_CASE("hard attention refuses scores, values and locations that do not fit", "[module][errors]") {
    Tensor s = zeros({2, 3}, Dtype::float64), v = zeros({2, 3, 4}, Dtype::float64);
    REQUIRE_THROWS_AS(nn::glimpse(s, v, tensor({0, 3}, {2}, Dtype::int64)), IndexError);
    REQUIRE_THROWS_AS(nn::glimpse(s, zeros({2, 4, 4}, Dtype::float64), tensor({0, 1}, {2}, Dtype::int64)), ShapeError);
    REQUIRE_THROWS_AS(nn::glimpse(s, v, tensor({0, 1, 2}, {3}, Dtype::int64)), ShapeError);
    REQUIRE_THROWS_AS(nn::reinforce_loss(zeros({2}, Dtype::float64), zeros({3}, Dtype::float64), 0), ShapeError);
}
