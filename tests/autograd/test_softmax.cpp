// softmax, log_softmax and attention's fused masked_softmax.
#include "check.h"

#include <cmath>
#include <limits>

using namespace autograd;

TEST_CASE("softmax and log_softmax by hand, and stable", "[forward]") {
    Tensor x = tensor({1, 2, 3}, Dtype::float64);
    require_values(softmax(x, 0), {0.09003057317038046, 0.24472847105479764, 0.6652409557748219}, 1e-12);
    require_values(log_softmax(x, 0), {-2.4076059644443806, -1.4076059644443806, -0.4076059644443806}, 1e-12);
    // exp(1000) overflows; subtracting the max makes it softmax([0, 1]).
    require_values(softmax(tensor({1000, 1001}), 0), softmax(tensor({0, 1}), 0).to_vector(), 1e-7);
    require_values(log_softmax(tensor({1000, 1001}), 0), {-1.3132616875182228, -0.31326168751822286}, 1e-4);  // float32 ulp at 1000 is 6e-5
    // Down each column of [[1, 3], [2, 4]] the scores differ by 1: softmax([0, 1]).
    require_values(softmax(tensor({1, 3, 2, 4}, {2, 2}), 0), {0.26894142, 0.26894142, 0.73105858, 0.73105858}, 1e-7);
}

TEST_CASE("masked_softmax: causal rows are probabilities with zeros where masked", "[forward]") {
    Tensor mask = tensor({1, 0, 0, 1, 1, 0, 1, 1, 1}, {3, 3}, Dtype::int64);  // subsequent mask
    Tensor s = tensor({5, 9, 9, 0, 0, 9, 1, 2, 3}, {3, 3}, Dtype::float64);
    Tensor p = masked_softmax(s, mask, 1.0);
    require_values(p, {1, 0, 0, 0.5, 0.5, 0, 0.09003057317038046, 0.24472847105479764, 0.6652409557748219}, 1e-12);
    // scale multiplies the scores before the softmax: softmax([0, 2] * 0.5) = softmax([0, 1])
    require_values(masked_softmax(tensor({0, 2}), tensor({1, 1}, Dtype::int64), 0.5), {0.26894142, 0.73105858});
}

TEST_CASE("masked_softmax: a padding mask broadcasts over heads and queries; a fully masked row is zeros", "[forward]") {
    Tensor s = zeros({2, 2, 3, 4});                                          // [B, H, Tq, Tk]
    Tensor pad = tensor({1, 1, 0, 0, 0, 0, 0, 0}, {2, 1, 1, 4}, Dtype::int64);  // batch 1 masks every key
    Tensor p = masked_softmax(s, pad, 1.0);
    for (std::int64_t h = 0; h < 2; ++h)
        for (std::int64_t q = 0; q < 3; ++q) {
            CHECK(p.at({0, h, q, 0}) == Approx(0.5));
            CHECK(p.at({0, h, q, 3}) == 0);
            CHECK(p.at({1, h, q, 2}) == 0);
        }
}

TEST_CASE("softmax family rejects bad dims and masks", "[errors]") {
    CHECK_THROWS_AS(softmax(zeros({2}), 1), IndexError);
    CHECK_THROWS_WITH(masked_softmax(zeros({2, 3}), ones({2, 3}), 1.0), Catch::Contains("masked_softmax: mask must be int64"));
    CHECK_THROWS_WITH(masked_softmax(zeros({2, 3}), ones({4}, Dtype::int64), 1.0),
                      Catch::Contains("masked_softmax: shapes cannot be broadcast"));
    CHECK_THROWS_AS(masked_softmax(zeros({3}), ones({2, 3}, Dtype::int64), 1.0), ShapeError);
}

// A float row of eight or more with no mask, or one flag that keeps the whole row, takes the
// kernel with its vectors written out (softmax_row.cpp); a mask per key takes the general
// loops. Both against float64, at lengths around the eight-lane vectors, with -inf scores.
TEST_CASE("masked_softmax: float rows without a mask agree with the masked loops and with float64", "[forward]") {
    Generator gen(7);
    const double inf = std::numeric_limits<double>::infinity();
    for (std::int64_t len : {1, 7, 8, 9, 15, 16, 17, 23, 24, 25, 40, 67}) {
        INFO("row length " << len);
        std::vector<double> v;
        for (int r = 0; r < 4; ++r)
            for (std::int64_t j = 0; j < len; ++j) v.push_back(6 * gen.normal());
        v[static_cast<std::size_t>(len - 1)] = -inf;  // row 0's last score, in the tail vector
        for (std::int64_t j = 0; j < len; ++j) v[static_cast<std::size_t>(len + j)] = -inf;  // row 1: every score
        v[static_cast<std::size_t>(3 * len)] = 1e30;  // row 3: one score swamps the rest
        const Tensor s = tensor(v, {4, len});
        const Tensor whole_row = ones({1}, Dtype::int64);     // one flag, broadcast over the row
        const Tensor per_key = ones({4, len}, Dtype::int64);  // a flag per score
        for (double scale : {0.3, -0.3, 0.0}) {
            INFO("scale " << scale);
            const std::vector<double> p = masked_softmax(s, whole_row, scale).to_vector();
            const std::vector<double> general = masked_softmax(s, per_key, scale).to_vector();
            const std::vector<double> exact = masked_softmax(s.to(Dtype::float64), per_key, scale).to_vector();
            for (std::size_t i = 0; i < p.size(); ++i) {
                INFO("element " << i);
                if (std::isnan(exact[i])) {  // scale < 0 makes a -inf score +inf: inf / inf
                    REQUIRE(std::isnan(p[i]));
                    continue;
                }
                REQUIRE(p[i] == Approx(exact[i]).margin(3e-7).epsilon(1e-6));
                REQUIRE(p[i] == Approx(general[i]).margin(2e-7).epsilon(5e-7));
            }
            if (scale > 0) {
                CHECK(p[static_cast<std::size_t>(len - 1)] == 0);
                for (std::int64_t j = 0; j < len; ++j) CHECK(p[static_cast<std::size_t>(len + j)] == 0);
                CHECK(p[static_cast<std::size_t>(3 * len)] == 1);
            }
        }
    }
}
