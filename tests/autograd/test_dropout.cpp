// dropout: inverted, seeded, identity in eval.
#include "check.h"

using namespace autograd;

TEST_CASE("dropout is the identity in eval and for p = 0", "[forward]") {
    Generator g(1);
    Tensor x = rand64({3, 4}, 1).detach();
    require_values(dropout(x, 0.5, false, g), x.to_vector());
    require_values(dropout(x, 0.0, true, g), x.to_vector());
}

TEST_CASE("dropout keeps about 1-p of the elements, scaled by 1/(1-p), with a seeded mask", "[forward]") {
    Tensor x = ones({100000});
    Generator g1(5), g2(5);
    std::vector<double> a = dropout(x, 0.3, true, g1).to_vector();
    CHECK(a == dropout(x, 0.3, true, g2).to_vector());
    std::int64_t kept = 0;
    double total = 0;
    for (double v : a) {
        if (v != 0) {
            ++kept;
            REQUIRE(v == Approx(1 / 0.7));
        }
        total += v;
    }
    CHECK(static_cast<double>(kept) / 100000 == Approx(0.7).margin(0.01));
    CHECK(total / 100000 == Approx(1.0).margin(0.02));  // the mean survives
}

TEST_CASE("dropout's mask is the same with any number of threads, and new at each call", "[forward]") {
    Tensor x = ones({100000});
    Generator g1(9), g2(9);
    set_num_threads(1);
    std::vector<double> one_thread = dropout(x, 0.1, true, g1).to_vector();
    set_num_threads(2);
    CHECK(dropout(x, 0.1, true, g2).to_vector() == one_thread);
    CHECK(dropout(x, 0.1, true, g2).to_vector() != one_thread);  // the generator moved on
    // Neighbours are independent: both kept about (1 - p)^2 of the time.
    std::int64_t both = 0;
    for (std::size_t i = 0; i + 1 < one_thread.size(); ++i) both += one_thread[i] != 0 && one_thread[i + 1] != 0;
    CHECK(static_cast<double>(both) / 99999 == Approx(0.81).margin(0.01));
}

TEST_CASE("dropout rejects probabilities outside [0, 1)", "[errors]") {
    Generator g(0);
    CHECK_THROWS_AS(dropout(ones({2}), 1.0, true, g), ValueError);
    CHECK_THROWS_WITH(dropout(ones({2}), -0.1, true, g), "dropout: probability -0.1 is outside [0, 1)");
}
