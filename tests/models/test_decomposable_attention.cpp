// Attention for entailment (004 §15.4.6 eq. 15.49-15.53), worked by hand on a premise of two words
// and a hypothesis of one, with f, g and h chosen so that every step is a sum on paper.
#include <cmath>

#include "check.h"
#include "lectern/models/decomposable_attention.h"

using namespace autograd;

namespace {

void set(Tensor& p, const std::vector<double>& values) {
    NoGradGuard no_grad;
    p.copy_(tensor(values, p.shape(), Dtype::float64));
}

// V 4, E 2, H 2: embeddings pad (0, 0), 1 -> (1, 0), 2 -> (0, 1), 3 -> (1, 1); f(x) = relu(relu(x)) = x for
// x >= 0; g(x, y) = x + y (or g(x) = x without alignment); h(u, v) = [r_1, r_2, r_1 + r_2 - 1] with
// r = relu(u - v).
std::shared_ptr<models::DecomposableAttention> hand_model(models::Alignment alignment) {
    models::DecomposableAttentionConfig c;
    c.vocab = 4, c.d_embed = 2, c.hidden = 2, c.alignment = alignment;
    auto p = std::make_shared<models::DecomposableAttention>(c);
    models::DecomposableAttention& m = *p;
    m.to(Dtype::float64);
    set(m.embed->weight, {0, 0, 1, 0, 0, 1, 1, 1});
    if (alignment == models::Alignment::soft) {
        set(m.f_1->weight, {1, 0, 0, 1}), set(m.f_1->bias, {0, 0});
        set(m.f_2->weight, {1, 0, 0, 1}), set(m.f_2->bias, {0, 0});
    }
    if (alignment == models::Alignment::none) set(m.g_1->weight, {1, 0, 0, 1});
    else set(m.g_1->weight, {1, 0, 1, 0, 0, 1, 0, 1});
    set(m.g_1->bias, {0, 0});
    set(m.g_2->weight, {1, 0, 0, 1}), set(m.g_2->bias, {0, 0});
    set(m.h_1->weight, {1, 0, -1, 0, 0, 1, 0, -1}), set(m.h_1->bias, {0, 0});
    set(m.h_2->weight, {1, 0, 0, 1, 1, 1}), set(m.h_2->bias, {0, 0, -1});
    return p;
}

Tensor ids(const std::vector<double>& v, const Shape& s) { return tensor(v, s, Dtype::int64); }

}  // namespace

TEST_CASE("attention for entailment by hand: e_ij, beta, alpha, v_A, v_B and h (004 eq. 15.49-15.53)", "[model]") {
    auto model = hand_model(models::Alignment::soft);
    models::DecomposableAttention& m = *model;
    // Premise a = (1, 0), (0, 1); hypothesis b = (1, 0). e_11 = a_1.b_1 = 1, e_21 = a_2.b_1 = 0.
    // beta_i = softmax over one b_j = b_1 for both i; alpha_1 = s a_1 + (1 - s) a_2 with s = e / (1 + e).
    const double s = std::exp(1.0) / (1 + std::exp(1.0));  // 0.7310585786
    // v_{A,1} = a_1 + b_1 = (2, 0), v_{A,2} = a_2 + b_1 = (1, 1): v_A = (3, 1)          (15.49)
    // v_{B,1} = b_1 + alpha_1 = (1 + s, 1 - s) = v_B                                    (15.51, 15.52)
    // r = relu(v_A - v_B) = (2 - s, s); y_hat = (2 - s, s, 1)                            (15.53)
    const std::vector<double> logits = {2 - s, s, 1};
    models::AlignmentWeights w;
    Tensor y = m.forward(ids({1, 2}, {1, 2}), ids({1}, {1, 1}), &w);
    require_values(y, logits, 1e-12);
    require_values(w.to_hypothesis, {1, 1}, 1e-12);   // [1, m 2, n 1]
    require_values(w.to_premise, {s, 1 - s}, 1e-12);  // [1, n 1, m 2]

    // Padding changes nothing: the same pair padded to m 3 and n 2, beside a pair of other words
    // (premise 3, 2, 1: a_3 = (1, 1) aligns best with b = (1, 1)).
    Tensor padded = m.forward(ids({1, 2, 0, 3, 2, 1}, {2, 3}), ids({1, 0, 3, 0}, {2, 2}), &w);
    require_values(select(padded, 0, 0), logits, 1e-12);
    require_values(select(select(w.to_hypothesis, 0, 0), 1, 1), {0, 0, 0}, 1e-12);  // no weight on the padded b_2
    require_values(select(select(w.to_premise, 0, 0), 0, 0), {s, 1 - s, 0}, 1e-12);
    // Row 1: e_i1 = (2, 1, 1): alpha_1 = (e^2 a_1 + e a_2 + e a_3) / (e^2 + 2e).
    const double z = std::exp(2.0) + 2 * std::exp(1.0);
    require_values(select(select(w.to_premise, 0, 1), 0, 0), {std::exp(2.0) / z, std::exp(1.0) / z, std::exp(1.0) / z},
                   1e-12);
}

TEST_CASE("attention for entailment with uniform weights: each word against the other sentence's mean", "[model]") {
    auto model = hand_model(models::Alignment::uniform);
    models::DecomposableAttention& m = *model;
    CHECK(!m.f_1);
    // e_ij = 0: beta_i = b_1 for both i, alpha_1 = (a_1 + a_2) / 2 = (0.5, 0.5).
    // v_A = (2, 0) + (1, 1) = (3, 1), v_B = b_1 + alpha_1 = (1.5, 0.5); r = (1.5, 0.5); y_hat = (1.5, 0.5, 1).
    models::AlignmentWeights w;
    require_values(m.forward(ids({1, 2}, {1, 2}), ids({1}, {1, 1}), &w), {1.5, 0.5, 1}, 1e-12);
    require_values(w.to_premise, {0.5, 0.5}, 1e-12);
    // Padding is left out of the mean: alpha_1 over the two words of a padded premise is the same.
    require_values(m.forward(ids({1, 0, 2}, {1, 3}), ids({1}, {1, 1}), &w), {1.5, 0.5, 1}, 1e-12);
    require_values(w.to_premise, {0.5, 0, 0.5}, 1e-12);
}

TEST_CASE("attention for entailment without comparison: h of the two sentences' sums alone", "[model]") {
    auto model = hand_model(models::Alignment::none);
    models::DecomposableAttention& m = *model;
    CHECK(!m.f_1);
    // v_A = g(a_1) + g(a_2) = (1, 1), v_B = g(b_1) = (1, 0); r = (0, 1); y_hat = (0, 1, 0).
    require_values(m.forward(ids({1, 2}, {1, 2}), ids({1}, {1, 1})), {0, 1, 0}, 1e-12);
    models::AlignmentWeights w;
    CHECK_THROWS_AS(m.forward(ids({1, 2}, {1, 2}), ids({1}, {1, 1}), &w), ValueError);
}

TEST_CASE("attention for entailment names its parameters and refuses bad sentences", "[model][errors]") {
    models::DecomposableAttentionConfig c;
    c.vocab = 9, c.d_embed = 4, c.hidden = 5;
    models::DecomposableAttention m(c);
    std::vector<std::string> names;
    for (auto& [name, p] : m.named_parameters()) names.push_back(name);
    CHECK(names == std::vector<std::string>{"embed.weight", "f_1.weight", "f_1.bias", "f_2.weight", "f_2.bias",
                                            "g_1.weight", "g_1.bias", "g_2.weight", "g_2.bias", "h_1.weight",
                                            "h_1.bias", "h_2.weight", "h_2.bias"});
    CHECK(m.g_1->weight.shape() == Shape{5, 8});  // g reads [a_i, beta_i], 2E wide
    CHECK(m.h_1->weight.shape() == Shape{5, 10});
    CHECK_THROWS_AS(m.forward(ids({1, 0}, {1, 2}), ids({0}, {1, 1})), ValueError);     // hypothesis all padding
    CHECK_THROWS_AS(m.forward(ids({1, 2}, {1, 2}), ids({1, 2}, {2, 1})), ShapeError);  // batches differ
    CHECK_THROWS_AS(m.forward(ids({1, 2}, {2}), ids({1}, {1, 1})), ShapeError);
    c.pad = 9;
    CHECK_THROWS_AS(models::DecomposableAttention(c), ValueError);
}
