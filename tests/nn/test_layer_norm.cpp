// LayerNorm module (003's formula with learned gain and bias).
#include "check.h"
#include "lectern/nn/layer_norm.h"

using namespace autograd;

TEST_CASE("LayerNorm normalises each row to mean 0 and variance 1 at init", "[module]") {
    nn::LayerNorm ln(8);
    Generator g(1);
    Tensor y = ln(randn({5, 8}, g) * 3.0 + 2.0);
    require_values(mean(y, -1), {0, 0, 0, 0, 0}, 1e-5);
    require_values(mean(pow(y, 2.0), -1), {1, 1, 1, 1, 1}, 1e-3);
}

TEST_CASE("LayerNorm rejects rows of another width", "[errors]") {
    nn::LayerNorm ln(5);
    CHECK_THROWS_AS(ln(zeros({2, 4})), ShapeError);
}

TEST_CASE("001's LayerNorm divides by the unbiased deviation plus eps 1e-6: gamma (a - mu) / (sigma + eps) + beta",
          "[module]") {
    nn::LayerNorm ln(4, nn::LayerNormFormula::annotated);
    CHECK(ln.eps == 1e-6);
    ln.to(Dtype::float64);
    // [1, 2, 3, 4]: mu 2.5, squares of the deviations sum to 5, sigma = sqrt(5 / 3) (D - 1 = 3).
    const double sigma = std::sqrt(5.0 / 3.0) + 1e-6;
    require_values(ln(tensor({1, 2, 3, 4}, {1, 4}, Dtype::float64)),
                   {-1.5 / sigma, -0.5 / sigma, 0.5 / sigma, 1.5 / sigma}, 1e-15);
    // Where the two formulas part: a row whose spread is near eps. [0, 1e-3]:
    // sigma = 7.07e-4 (unbiased) + 1e-6 outside the root -> +-0.7061; 003's
    // sqrt(2.5e-7 + 1e-5) would give +-0.156.
    nn::LayerNorm two(2, nn::LayerNormFormula::annotated);
    two.to(Dtype::float64);
    const double s2 = std::sqrt(2 * 2.5e-7) + 1e-6;
    require_values(two(tensor({0, 1e-3}, {1, 2}, Dtype::float64)), {-5e-4 / s2, 5e-4 / s2}, 1e-12);
    // gamma and beta apply after the normalisation, as in the standard formula.
    NoGradGuard no_grad;
    ln.gamma.copy_(tensor({2, 2, 2, 2}, Dtype::float64));
    ln.beta.copy_(tensor({1, 1, 1, 1}, Dtype::float64));
    require_values(ln(tensor({1, 2, 3, 4}, {1, 4}, Dtype::float64)),
                   {1 - 3 / sigma, 1 - 1 / sigma, 1 + 1 / sigma, 1 + 3 / sigma}, 1e-15);
}

TEST_CASE("001's LayerNorm needs two values a row and rejects other widths", "[errors]") {
    CHECK_THROWS_AS(nn::LayerNorm(1, nn::LayerNormFormula::annotated), ValueError);
    nn::LayerNorm ln(5, nn::LayerNormFormula::annotated);
    CHECK_THROWS_AS(ln(zeros({2, 4})), ShapeError);
}
