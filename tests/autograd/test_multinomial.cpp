// multinomial: draws by weight from a Generator, with and without replacement.
#include <cmath>
#include <set>

#include "check.h"

using namespace autograd;

TEST_CASE("multinomial draws each category in proportion to its weight, never a zero weight", "[forward]") {
    // weights 1 : 0 : 3, 4000 draws: about 1000 of category 0, none of 1, about 3000 of 2
    Generator gen(7);
    Tensor draws = multinomial(tensor({1, 0, 3}), 4000, /*replacement=*/true, gen);
    CHECK(draws.shape() == Shape{4000});
    CHECK(draws.dtype() == Dtype::int64);
    std::int64_t count[3] = {0, 0, 0};
    for (double j : draws.to_vector()) ++count[static_cast<int>(j)];
    CHECK(count[1] == 0);
    CHECK(std::abs(count[0] - 1000) < 100);  // the standard deviation is sqrt(4000 * 1/4 * 3/4) = 27
    CHECK(count[0] + count[2] == 4000);
    // the same generator state gives the same draws
    Generator a(3), b(3);
    CHECK(multinomial(tensor({1, 2, 3, 4}), 20, true, a).to_vector() ==
          multinomial(tensor({1, 2, 3, 4}), 20, true, b).to_vector());
}

TEST_CASE("multinomial without replacement draws each positive category at most once, per row", "[forward]") {
    Generator gen(1);
    Tensor w = tensor({1, 2, 0, 4, 0, 0, 5, 1}, {2, 4}, Dtype::float64);
    for (int trial = 0; trial < 50; ++trial) {
        Tensor d = multinomial(w, 2, /*replacement=*/false, gen);
        REQUIRE(d.shape() == Shape{2, 2});
        CHECK(d.at({0, 0}) != d.at({0, 1}));
        CHECK(d.at({0, 0}) != 2);
        CHECK(std::set<double>{d.at({1, 0}), d.at({1, 1})} == std::set<double>{2, 3});  // the only two positive
    }
}

TEST_CASE("multinomial refuses negative, non-finite and all-zero weights, and too many draws", "[errors]") {
    Generator gen(0);
    CHECK_THROWS_WITH(multinomial(tensor({1, -2, 3}), 1, true, gen),
                      "multinomial: weight 1 is -2; weights must be finite and >= 0");
    CHECK_THROWS_WITH(multinomial(tensor({1, 1, 0, 0}, {2, 2}), 1, true, gen),
                      "multinomial: the weights of row 1 are all zero; at least one must be positive");
    CHECK_THROWS_WITH(multinomial(tensor({1, 0, 3}), 3, false, gen),
                      "multinomial: 3 samples without replacement, but the weights have only 2 positive; draw at "
                      "most 2 or pass replacement = true");
    CHECK_THROWS_AS(multinomial(tensor({1, std::nan("")}), 1, true, gen), ValueError);
    CHECK_THROWS_WITH(multinomial(tensor({1e308, 1e308}, Dtype::float64), 1, true, gen),
                      "multinomial: the weights sum past the largest double; scale them down");
    CHECK_THROWS_AS(multinomial(zeros({2, 2, 2}), 1, true, gen), ShapeError);
    CHECK_THROWS_AS(multinomial(tensor({1}), -1, true, gen), ValueError);
    CHECK_THROWS_AS(multinomial(tensor({1}, Dtype::int64), 1, true, gen), DtypeError);
}
