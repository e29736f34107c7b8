// Sinusoidal (004 §15.5.3) and learned (002) positional encodings.
#include <cmath>

#include "check.h"
#include "nn/learned_positional_embedding.h"
#include "nn/sinusoidal_positional_encoding.h"

using namespace autograd;

TEST_CASE("sinusoidal code for d = 4 is the notes' row (004 eq. 15.58)", "[module]") {
    nn::SinusoidalPositionalEncoding pe(4);
    for (int i : {0, 1, 7}) {
        // p_i = [sin(i / C^0), cos(i / C^0), sin(i / C^(2/4)), cos(i / C^(2/4))], C = 10000
        double c = std::pow(10000.0, 0.5);
        require_values(narrow(pe.table, 0, i, 1), {std::sin(i), std::cos(i), std::sin(i / c), std::cos(i / c)}, 1e-6);
    }
}

TEST_CASE("the sinusoidal code shifts by a fixed rotation: p(t+phi) = M(phi) p(t) (004 eq. 15.59)", "[module]") {
    const std::int64_t d = 16, phi = 3;
    nn::SinusoidalPositionalEncoding pe(d);
    pe.to(Dtype::float64);
    // M(phi) is block diagonal with [[cos(w_k phi), sin(w_k phi)], [-sin(w_k phi), cos(w_k phi)]]
    // acting on each (sin, cos) pair, w_k = 1 / C^(2k/d).
    Tensor M = zeros({d, d}, Dtype::float64);
    for (std::int64_t k = 0; k < d / 2; ++k) {
        double w = 1 / std::pow(10000.0, 2.0 * static_cast<double>(k) / d);
        M.set({2 * k, 2 * k}, std::cos(w * phi));
        M.set({2 * k, 2 * k + 1}, std::sin(w * phi));
        M.set({2 * k + 1, 2 * k}, -std::sin(w * phi));
        M.set({2 * k + 1, 2 * k + 1}, std::cos(w * phi));
    }
    for (std::int64_t t : {0, 5, 40}) {
        Tensor p_t = unsqueeze(select(pe.table, 0, t), 1);  // [d, 1]
        Tensor shifted = matmul(M, p_t);
        require_values(shifted, narrow(pe.table, 0, t + phi, 1).to_vector(), 1e-5);  // float32 table
    }
}

TEST_CASE("p_t and p_(t+phi) are close for small phi, by the same distance at every t (004 after eq. 15.59)",
          "[module]") {
    // By eq. 15.59 each (sin, cos) pair turns by w_k phi, so
    //   ||p_(t+phi) - p_t||^2 = sum_k (2 - 2 cos(w_k phi)),   w_k = 1 / C^(2k/d),
    // which does not depend on t and, for small phi, grows with phi from 0.
    const std::int64_t d = 64;
    nn::SinusoidalPositionalEncoding pe(d, 0.0, 256);
    pe.to(Dtype::float64);
    double previous = 0;
    for (std::int64_t phi : {1, 2, 3, 4}) {
        double by_hand = 0;
        for (std::int64_t k = 0; k < d / 2; ++k)
            by_hand += 2 - 2 * std::cos(phi / std::pow(10000.0, 2.0 * static_cast<double>(k) / d));
        by_hand = std::sqrt(by_hand);
        for (std::int64_t t : {0, 17, 200}) {
            double distance = std::sqrt(squared_norm(select(pe.table, 0, t + phi) - select(pe.table, 0, t)));
            INFO("t " << t << ", phi " << phi);
            CHECK(std::abs(distance - by_hand) < 1e-12);
        }
        CHECK(by_hand > previous);
        previous = by_hand;
    }
    // One step apart, the codes are near: |p_(t+1) - p_t| = 1.47 beside |p_t| = sqrt(d / 2) = 5.66.
    double one_step = std::sqrt(squared_norm(select(pe.table, 0, 1) - select(pe.table, 0, 0)));
    CHECK(one_step < 0.3 * std::sqrt(d / 2.0));
}

TEST_CASE("positional encodings add to the input", "[module]") {
    nn::SinusoidalPositionalEncoding pe(4, 0.0, 10);
    Tensor y = pe(zeros({2, 3, 4}));
    require_values(narrow(y, 0, 1, 1), narrow(pe.table, 0, 0, 3).to_vector());
    require_values(pe.forward(zeros({1, 1, 4}), 2), narrow(pe.table, 0, 2, 1).to_vector());
    nn::LearnedPositionalEmbedding lpe(5, 4);
    require_values(narrow(lpe(ones({2, 3, 4})), 0, 0, 1), (narrow(lpe.weight, 0, 0, 3) + 1.0).to_vector());
    require_values(lpe.forward(zeros({1, 2, 4}), 3), narrow(lpe.weight, 0, 3, 2).to_vector());  // positions 3, 4
}

TEST_CASE("positional encodings reject sequences longer than max_len", "[errors]") {
    nn::SinusoidalPositionalEncoding pe(4, 0.0, 3);
    CHECK_THROWS_AS(pe(zeros({1, 4, 4})), ShapeError);
    CHECK_THROWS_AS(pe(zeros({1, 2, 5})), ShapeError);
    nn::LearnedPositionalEmbedding lpe(3, 4);
    CHECK_THROWS_WITH(lpe(zeros({1, 4, 4})), Catch::Contains("LearnedPositionalEmbedding: input [1, 4, 4]"));
    CHECK_THROWS_AS(lpe.forward(zeros({1, 2, 4}), 2), ShapeError);  // positions 2, 3 of 3
}

TEST_CASE("a float64 model's sinusoidal table is eq. 15.57 in float64, not widened float32 (004 §15.5.3)", "[module]") {
    const std::int64_t d = 16, max_len = 64;
    nn::SinusoidalPositionalEncoding pe(d, 0.0, max_len);
    pe.to(Dtype::float64);
    REQUIRE(pe.table.dtype() == Dtype::float64);
    double worst = 0;
    for (std::int64_t i = 0; i < max_len; ++i)
        for (std::int64_t j = 0; 2 * j < d; ++j) {
            const double angle = static_cast<double>(i) / std::pow(10000.0, 2.0 * static_cast<double>(j) / d);
            worst = std::max({worst, std::abs(pe.table.at({i, 2 * j}) - std::sin(angle)),
                              std::abs(pe.table.at({i, 2 * j + 1}) - std::cos(angle))});
        }
    INFO("largest difference from eq. 15.57 in double: " << worst);
    CHECK(worst <= 1e-15);
    pe.to(Dtype::float32);  // and back: float32 values rounded once
    CHECK(pe.table.at({63, 1}) == static_cast<double>(static_cast<float>(std::cos(63.0))));
}
