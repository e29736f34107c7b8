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
    require_values(log_softmax(tensor({1000, 1001}), 0), {-1.3132616875182228, -0.31326168751822286},
                   1e-4);  // float32 ulp at 1000 is 6e-5
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

TEST_CASE("masked_softmax: a padding mask broadcasts over heads and queries; a fully masked row is zeros",
          "[forward]") {
    Tensor s = zeros({2, 2, 3, 4});                                             // [B, H, Tq, Tk]
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
    CHECK_THROWS_WITH(masked_softmax(zeros({2, 3}), ones({2, 3}), 1.0),
                      Catch::Contains("masked_softmax: mask must be int64"));
    CHECK_THROWS_WITH(masked_softmax(zeros({2, 3}), ones({4}, Dtype::int64), 1.0),
                      Catch::Contains("masked_softmax: shapes cannot be broadcast"));
    CHECK_THROWS_AS(masked_softmax(zeros({3}), ones({2, 3}, Dtype::int64), 1.0), ShapeError);
}
