// Losses: cross-entropy, NLL, the Annotated Transformer's label smoothing.
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
    nn::LabelSmoothingLoss crit(3, 2, 0.0);     // the padding class 2 gets no weight
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
