// cross_entropy from logits: ignore index and label smoothing.
#include "check.h"

using namespace autograd;

TEST_CASE("cross_entropy by hand, with an ignored row and with smoothing", "[forward]") {
    // Row 0: logits [0, 0] -> p = [0.5, 0.5], target 1: -log 0.5 = 0.6931.
    // Row 1: logits [ln 3, 0] -> p = [0.75, 0.25], target 0: -log 0.75 = 0.2877.
    // Row 2 is ignored. Mean over 2 rows = 0.4904.
    Tensor logits = tensor({0, 0, std::log(3.0), 0, 5, -5}, {3, 2}, Dtype::float64);
    Tensor target = tensor({1, 0, -100}, Dtype::int64);
    double l0 = -std::log(0.5), l1 = -std::log(0.75);
    CHECK(cross_entropy(logits, target).item() == Approx((l0 + l1) / 2).epsilon(1e-12));
    // Smoothing eps = 0.2, C = 2: loss_row = -0.8 log p[t] - 0.1 (log p0 + log p1).
    double s0 = 0.8 * l0 - 0.1 * (2 * std::log(0.5));
    double s1 = 0.8 * l1 - 0.1 * (std::log(0.75) + std::log(0.25));
    CHECK(cross_entropy(logits, target, -100, 0.2).item() == Approx((s0 + s1) / 2).epsilon(1e-12));
    CHECK(cross_entropy(logits, tensor({-100, -100, -100}, Dtype::int64)).item() == 0);
}

TEST_CASE("cross_entropy backward by hand: (p - onehot) / count, zero on an ignored row", "[forward]") {
    // The rows above: p0 = [0.5, 0.5] with t = 1, p1 = [0.75, 0.25] with t = 0, row 2 ignored;
    // count = 2.
    for (Dtype dtype : {Dtype::float32, Dtype::float64}) {
        Tensor logits = tensor({0, 0, std::log(3.0), 0, 5, -5}, {3, 2}, dtype).requires_grad_();
        cross_entropy(logits, tensor({1, 0, -100}, Dtype::int64)).backward();
        require_values(logits.grad(), {0.25, -0.25, -0.125, 0.125, 0, 0});
    }
}

TEST_CASE("cross_entropy rejects bad targets", "[errors]") {
    Tensor logits = zeros({2, 3});
    CHECK_THROWS_AS(cross_entropy(logits, tensor({0, 1})), DtypeError);
    CHECK_THROWS_AS(cross_entropy(logits, tensor({0, 1, 2}, Dtype::int64)), ShapeError);
    CHECK_THROWS_WITH(cross_entropy(logits, tensor({0, 3}, Dtype::int64)),
                      "cross_entropy: target 3 at position 1 is outside [0, 3)");
    CHECK_THROWS_AS(cross_entropy(logits, tensor({0, 1}, Dtype::int64), -100, 1.5), ValueError);
}
