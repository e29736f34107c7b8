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
