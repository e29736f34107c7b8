// The STS variant of attention for entailment (004 §15.4.6, after eq. 15.53): y_hat = 5 sigmoid(h),
// h of one output, worked by hand on the pair of test_decomposable_attention.cpp.
#include <cmath>

#include "check.h"
#include "lectern/models/textual_similarity.h"
#include "lectern/nn/loss.h"

using namespace autograd;

namespace {

void set(Tensor& p, const std::vector<double>& values) {
    NoGradGuard no_grad;
    p.copy_(tensor(values, p.shape(), Dtype::float64));
}

Tensor ids(const std::vector<double>& v, const Shape& s) { return tensor(v, s, Dtype::int64); }

}  // namespace

TEST_CASE("textual similarity by hand: y_hat = 5 sigmoid(h([v_A, v_B])) and its squared error (004 §15.4.6)",
          "[model]") {
    // V 4, E 2, H 2: embeddings pad (0, 0), 1 -> (1, 0), 2 -> (0, 1), 3 -> (1, 1); f(x) = x for x >= 0;
    // g(x, y) = x + y; h(u, v) = r_1 - r_2 with r = relu(u - v), one output.
    models::DecomposableAttentionConfig c;
    c.vocab = 4, c.d_embed = 2, c.hidden = 2, c.classes = 1;
    models::TextualSimilarity model(c);
    model.to(Dtype::float64);
    models::DecomposableAttention& m = *model.attention;
    set(m.embed->weight, {0, 0, 1, 0, 0, 1, 1, 1});
    set(m.f_1->weight, {1, 0, 0, 1}), set(m.f_1->bias, {0, 0});
    set(m.f_2->weight, {1, 0, 0, 1}), set(m.f_2->bias, {0, 0});
    set(m.g_1->weight, {1, 0, 1, 0, 0, 1, 0, 1}), set(m.g_1->bias, {0, 0});
    set(m.g_2->weight, {1, 0, 0, 1}), set(m.g_2->bias, {0, 0});
    set(m.h_1->weight, {1, 0, -1, 0, 0, 1, 0, -1}), set(m.h_1->bias, {0, 0});
    set(m.h_2->weight, {1, -1}), set(m.h_2->bias, {0});
    // Premise a = (1, 0), (0, 1); hypothesis b = (1, 0): with s = e / (1 + e) = 0.73106, v_A = (3, 1) and
    // v_B = (1 + s, 1 - s) (the worked entailment example), r = (2 - s, s), h = 2 - 2s = 0.53788.
    // y_hat = 5 sigmoid(0.53788) = 5 (0.63132) = 3.15660.
    const double s = std::exp(1.0) / (1 + std::exp(1.0)), x = 2 - 2 * s, sig = 1 / (1 + std::exp(-x));
    Tensor y = model(ids({1, 2}, {1, 2}), ids({1}, {1, 1}));
    REQUIRE(y.shape() == Shape{1});
    require_values(y, {5 * sig}, 1e-12);
    REQUIRE(std::abs(y.item() - 3.1565989) < 1e-7);
    // Squared error against a relatedness of 3: (y_hat - 3)^2, and through h_2's bias
    // d/db = 2 (y_hat - 3) 5 sig (1 - sig) = 2 (0.15660)(1.16378) = 0.36449.
    Tensor loss = nn::mse_loss(y, tensor({3}, {1}, Dtype::float64));
    require_values(loss, {(5 * sig - 3) * (5 * sig - 3)}, 1e-12);
    loss.backward();
    require_values(m.h_2->bias.grad(), {2 * (5 * sig - 3) * 5 * sig * (1 - sig)}, 1e-12);
    REQUIRE(std::abs(m.h_2->bias.grad().item() - 0.3644919) < 1e-7);
}

TEST_CASE("textual similarity stays on the scale (0, 5) and asks for one output", "[model][errors]") {
    models::DecomposableAttentionConfig c;
    c.vocab = 9, c.d_embed = 4, c.hidden = 5, c.classes = 1, c.seed = 3;
    models::TextualSimilarity model(c);
    {
        NoGradGuard no_grad;
        model.attention->h_2->bias.copy_(tensor({50}, {1}));  // h far past the top: y_hat near 5, never above
    }
    const std::vector<double> y = model(ids({1, 5, 2, 0}, {1, 4}), ids({5, 7, 6}, {1, 3})).to_vector();
    REQUIRE(y[0] > 4.99);
    REQUIRE(y[0] <= 5);
    c.classes = 3;
    REQUIRE_THROWS_AS(models::TextualSimilarity(c), ValueError);
}
