// Sinusoidal (004 §15.5.3) and learned (002) positional encodings; 004's binary
// code, the sinusoid concatenated instead of added, and none.
#include <cmath>

#include "check.h"
#include "lectern/nn/binary_positional_encoding.h"
#include "lectern/nn/concatenated_positional_encoding.h"
#include "lectern/nn/embedding.h"
#include "lectern/nn/learned_positional_embedding.h"
#include "lectern/nn/make_positional_encoding.h"
#include "lectern/nn/no_positional_encoding.h"
#include "lectern/nn/sinusoidal_positional_encoding.h"

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

TEST_CASE("004's binary code: row i is i's bits, column 0 the fastest (004 §15.5.3)", "[module]") {
    nn::BinaryPositionalEncoding pe(4, 0.0, 8);
    // The note's n = 3 rows 000 .. 111, read with the lowest bit first, and a fourth column
    // that no position below 8 = 2^3 sets.
    const std::vector<std::vector<double>> rows = {{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {1, 1, 0, 0},
                                                   {0, 0, 1, 0}, {1, 0, 1, 0}, {0, 1, 1, 0}, {1, 1, 1, 0}};
    for (std::int64_t i = 0; i < 8; ++i) require_values(narrow(pe.table, 0, i, 1), rows[static_cast<std::size_t>(i)]);
    // Added to x, from position 5: x + [1 0 1 0], x + [0 1 1 0].
    Tensor y = pe.forward(full({1, 2, 4}, 0.5), 5);
    require_values(y, {1.5, 0.5, 1.5, 0.5, 0.5, 1.5, 1.5, 0.5});
}

TEST_CASE("the concatenated sinusoid puts eq. 15.57 of width K beside the embeddings (004 §15.5.3; 000)", "[module]") {
    nn::ConcatenatedPositionalEncoding pe(6, 2, 0.0, 10);  // D = 6: 4 of tokens, K = 2 of position
    CHECK(pe.input_width() == 4);
    Tensor x = tensor({1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 4});
    // K = 2 is eq. 15.57's one pair at frequency 1: [sin i, cos i] for i = 3, 4.
    require_values(pe.forward(x, 3),
                   {1, 2, 3, 4, std::sin(3.0), std::cos(3.0), 5, 6, 7, 8, std::sin(4.0), std::cos(4.0)}, 1e-6);
    // The embeddings pass unchanged: no position can overwrite a token's coordinate.
    nn::ConcatenatedPositionalEncoding wide(8, 4, 0.0, 10);
    require_values(narrow(wide(ones({2, 3, 4})), 2, 0, 4), std::vector<double>(24, 1.0));
    nn::SinusoidalPositionalEncoding code(4, 0.0, 10);
    require_values(narrow(wide(ones({2, 3, 4})), 2, 4, 4),
                   broadcast_to(narrow(code.table, 0, 0, 3), {2, 3, 4}).to_vector());
}

TEST_CASE("adding a code zero where the embeddings are not is concatenating them (000 §15.5.3)", "[module]") {
    // 000 §15.5.3: adding takes less space than concatenating, and learned embeddings could
    // simulate the concatenation by leaving K coordinates at zero for the code. Here the
    // concatenation [E'[x] ; P_K] against the sum of an embedding E = [E' ; 0] and a learned
    // table W_pos = [0 ; P_K], both D wide: the same numbers.
    const std::int64_t vocab = 6, D = 8, K = 4, max_len = 12;
    autograd::Generator gen(54);
    nn::Embedding narrow_table(vocab, D - K, false, gen);  // E' [V, D - K]
    nn::ConcatenatedPositionalEncoding concatenated(D, K, 0.0, max_len);
    nn::Embedding wide_table(vocab, D, false, gen);         // E = [E' ; 0]
    nn::LearnedPositionalEmbedding added(max_len, D, gen);  // W_pos = [0 ; P_K]
    {
        NoGradGuard no_grad;
        wide_table.weight.copy_(concat({narrow_table.weight, zeros({vocab, K})}, 1));
        added.weight.copy_(concat({zeros({max_len, D - K}), concatenated.table}, 1));
    }
    Tensor ids = tensor({1, 5, 2, 2, 0, 3, 4, 1}, {2, 4}, Dtype::int64);
    for (std::int64_t start : {0, 5}) {
        INFO("positions from " << start);
        require_values(added.forward(wide_table(ids), start),
                       concatenated.forward(narrow_table(ids), start).to_vector(), 0);
    }
}

TEST_CASE("no positions pass x through, with dropout in training only", "[module]") {
    nn::NoPositionalEncoding pe(4, 0.5);
    autograd::Generator gen(2);
    Tensor x = uniform({2, 3, 4}, -1, 1, gen);
    pe.eval();
    require_values(pe.forward(x, 7), x.to_vector());
    pe.train();
    Tensor y = pe(x);
    std::int64_t zeroed = 0;
    for (double v : y.to_vector()) zeroed += v == 0.0;
    CHECK(zeroed > 0);
}

TEST_CASE("every code takes its documented width and rejects others; kinds by name", "[errors]") {
    autograd::Generator gen(1);
    for (nn::Positions kind : {nn::Positions::none, nn::Positions::sinusoidal, nn::Positions::learned,
                               nn::Positions::binary, nn::Positions::concatenated}) {
        INFO(nn::positions_name(kind));
        CHECK(nn::parse_positions(nn::positions_name(kind)) == kind);
        auto pe = nn::make_positional_encoding(kind, 16, 6, 0.0, 0, gen);
        const std::int64_t width = kind == nn::Positions::concatenated ? 12 : 16;  // K = 16 / 4
        CHECK(pe->input_width() == width);
        CHECK(pe->input_width() == nn::embedding_width(kind, 16, 0));
        CHECK(pe->forward(zeros({2, 6, width})).shape() == Shape{2, 6, 16});
        CHECK_THROWS_AS(pe->forward(zeros({2, 6, width + 1})), ShapeError);
        if (kind != nn::Positions::none) CHECK_THROWS_AS(pe->forward(zeros({2, 6, width}), 1), ShapeError);
    }
    CHECK_THROWS_WITH(nn::parse_positions("rotary"),
                      Catch::Contains("choose none, sinusoidal, learned, binary or concatenated"));
    CHECK_THROWS_AS(nn::ConcatenatedPositionalEncoding(8, 3), ValueError);  // K odd: sin and cos come in pairs
    CHECK_THROWS_AS(nn::ConcatenatedPositionalEncoding(8, 8), ValueError);  // no room left for the tokens
    CHECK_THROWS_AS(nn::BinaryPositionalEncoding(0), ValueError);
}
