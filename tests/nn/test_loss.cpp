// Losses: cross-entropy, NLL, the Annotated Transformer's label smoothing, MSE, L1, binary cross-entropy.
#include <cmath>
#include <limits>

#include "check.h"
#include "lectern/nn/loss.h"

using namespace autograd;

TEST_CASE("nll_loss by hand, ignoring a row", "[module]") {
    // log p rows: row 0 target 2, row 1 ignored, row 2 target 0
    Tensor logp = log(tensor({0.1, 0.2, 0.7, 0.25, 0.25, 0.5, 0.6, 0.3, 0.1}, {3, 3}, Dtype::float64));
    Tensor t = tensor({2, -100, 0}, Dtype::int64);
    CHECK(nn::nll_loss(logp, t).item() == Approx(-(std::log(0.7) + std::log(0.6)) / 2).epsilon(1e-12));
    // cross_entropy of logits = nll_loss of log_softmax(logits)
    Tensor logits = rand64({3, 3}, 1).detach();
    CHECK(cross_entropy(logits, t).item() == Approx(nn::nll_loss(log_softmax(logits, -1), t).item()).epsilon(1e-12));
}

TEST_CASE("LabelSmoothingLoss is KL(q || p) with the Annotated Transformer's q", "[module]") {
    // V = 5, padding 0, smoothing 0.4: eps / (V - 2) = 0.4 / 3 on the classes that are neither
    // the target nor padding, so q = [0, 0.1333, 0.1333, 0.6, 0.1333] for target 3 (sums to 1).
    nn::LabelSmoothingLoss crit(5, 0, 0.4);
    Tensor logp = log(tensor({0.1, 0.2, 0.3, 0.3, 0.1, 0.2, 0.2, 0.2, 0.2, 0.2}, {2, 5}, Dtype::float64));
    Tensor t = tensor({3, 0}, Dtype::int64);  // row 1 is padding: ignored
    double q[5] = {0, 0.4 / 3, 0.4 / 3, 0.6, 0.4 / 3}, p[5] = {0.1, 0.2, 0.3, 0.3, 0.1}, kl = 0;
    for (int c = 1; c < 5; ++c) kl += q[c] * (std::log(q[c]) - std::log(p[c]));
    CHECK(crit(logp, t).item() == Approx(kl).epsilon(1e-12));
    // Without smoothing it is the NLL.
    nn::LabelSmoothingLoss plain(5, 0, 0.0);
    CHECK(plain(logp, t).item() == Approx(-std::log(0.3)).epsilon(1e-12));
}

TEST_CASE("a -inf log-probability where the target puts no weight does not make the loss NaN", "[module]") {
    double inf = std::numeric_limits<double>::infinity();
    Tensor logp = tensor({std::log(0.5), std::log(0.5), -inf, -inf, -inf, -inf}, {2, 3}, Dtype::float64);
    Tensor t = tensor({1, -100}, Dtype::int64);  // row 1 is ignored; class 2 of row 0 has probability 0
    CHECK(nn::nll_loss(logp, t).item() == Approx(std::log(2.0)));
    nn::LabelSmoothingLoss crit(3, 2, 0.0);  // the padding class 2 gets no weight
    CHECK(crit(logp, tensor({1, 2}, Dtype::int64)).item() == Approx(std::log(2.0)));
}

TEST_CASE("losses reject mismatched targets", "[errors]") {
    nn::LabelSmoothingLoss crit(5, 0, 0.1);
    CHECK_THROWS_AS(crit(zeros({2, 4}), tensor({1, 2}, Dtype::int64)), ShapeError);
    CHECK_THROWS_AS(crit(zeros({2, 5}), tensor({1, 5}, Dtype::int64)), IndexError);
    CHECK_THROWS_AS(nn::nll_loss(zeros({2, 5}), tensor({1, 2, 3}, Dtype::int64)), ShapeError);
    CHECK_THROWS_AS(nn::nll_loss(zeros({2, 5}), tensor({1, 2})), DtypeError);
    CHECK_THROWS_AS(nn::LabelSmoothingLoss(5, 0, 1.0), ValueError);
}

TEST_CASE("mse_loss and l1_loss by hand, with their gradients for input and target", "[module]") {
    Tensor x = tensor({1, 2, 3}, Dtype::float64).requires_grad_();
    Tensor y = tensor({1, 0, 5}, Dtype::float64).requires_grad_();
    // (x - y)^2 = [0, 4, 4]
    CHECK(nn::mse_loss(x, y).item() == Approx(8.0 / 3).epsilon(1e-15));
    CHECK(nn::mse_loss(x, y, nn::Reduction::sum).item() == 8);
    require_values(nn::mse_loss(x, y, nn::Reduction::none), {0, 4, 4});
    nn::mse_loss(x, y).backward();  // 2 (x - y) / 3
    require_values(x.grad(), {0, 4.0 / 3, -4.0 / 3}, 1e-15);
    require_values(y.grad(), {0, -4.0 / 3, 4.0 / 3}, 1e-15);
    x.zero_grad(), y.zero_grad();
    // |x - y| = [0, 2, 2]; the slope sign(x - y) / 3, 0 at the tie
    CHECK(nn::l1_loss(x, y).item() == Approx(4.0 / 3).epsilon(1e-15));
    nn::l1_loss(x, y).backward();
    require_values(x.grad(), {0, 1.0 / 3, -1.0 / 3}, 1e-15);
    CHECK_THROWS_WITH(nn::mse_loss(x, tensor({1, 2, 3}, {3, 1}, Dtype::float64)),
                      "mse_loss: input [3] and target [3, 1] differ in shape; reshape one to the other's");
}

TEST_CASE("binary_cross_entropy by hand: -ln p for a 1, -ln(1 - p) for a 0, 100 at a certain miss", "[module]") {
    Tensor p = tensor({0.5, 0.8, 0, 0}, Dtype::float64).requires_grad_();
    Tensor y = tensor({1, 0, 0, 1}, Dtype::float64);
    // -ln 0.5, -ln 0.2, -ln 1, and -ln 0 clamped to 100 as PyTorch does
    require_values(nn::binary_cross_entropy(p, y, nn::Reduction::none),
                   {0.6931471805599453, 1.6094379124341003, 0, 100}, 1e-15);
    nn::binary_cross_entropy(p, y, nn::Reduction::sum).backward();
    // (p - y) / max(p (1 - p), 1e-12): -0.5 / 0.25, 0.8 / 0.16, 0 / 1e-12, -1 / 1e-12
    require_values(p.grad(), {-2, 5, 0, -1e12}, 1e-3);
    CHECK_THROWS_WITH(nn::binary_cross_entropy(tensor({1.5}, Dtype::float64), tensor({1}, Dtype::float64)),
                      "binary_cross_entropy: a probability is outside [0, 1]; for logits use "
                      "binary_cross_entropy_with_logits");
}

TEST_CASE("binary_cross_entropy_with_logits by hand: softplus(x) - x y, finite at any logit", "[module]") {
    Tensor x = tensor({0, 2, -1, 1000, -1000}, Dtype::float64).requires_grad_();
    Tensor y = tensor({1, 0, 0.5, 1, 1}, Dtype::float64);
    // ln 2; ln(1 + e^2); ln(1 + e^-1) + 0.5; 0; 1000
    require_values(nn::binary_cross_entropy_with_logits(x, y, nn::Reduction::none),
                   {0.6931471805599453, 2.1269280110429727, 0.8132616875182228, 0, 1000}, 1e-13);
    nn::binary_cross_entropy_with_logits(x, y, nn::Reduction::sum).backward();
    // sigmoid(x) - y
    require_values(x.grad(), {-0.5, 0.8807970779778823, -0.2310585786300049, 0, -1}, 1e-15);
    // the same as binary_cross_entropy of sigmoid(x), where p is not 0 or 1
    Tensor z = tensor({-2, 0.5, 3}, Dtype::float64), t = tensor({0, 1, 0.3}, Dtype::float64);
    require_values(nn::binary_cross_entropy_with_logits(z, t, nn::Reduction::none),
                   nn::binary_cross_entropy(sigmoid(z), t, nn::Reduction::none).to_vector(), 1e-14);
}
