// Attention without the 1/sqrt(d_k) scale (001's "dot-product attention") and 003's plain
// dot-product attention, where the inputs are the queries, keys and values themselves.
#include <cmath>

#include "check.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/dot_product_attention.h"
#include "lectern/nn/multi_head_attention.h"
#include "lectern/nn/scaled_dot_product_attention.h"

using namespace autograd;

TEST_CASE("unscaled attention is softmax(Q K^T): 002's worked example without the division by sqrt(D_K)", "[module]") {
    // 002 "Self-Attention: Step-by-Step": scores 102 and 99; unscaled their softmax is (1, e^-3) / (1 + e^-3).
    Tensor q = tensor({1, 1, 1}, {1, 1, 3}, Dtype::float64);
    Tensor k = tensor({34, 34, 34, 33, 33, 33}, {1, 2, 3}, Dtype::float64);
    Tensor v = tensor({1, 0, 0, 0, 1, 0}, {1, 2, 3}, Dtype::float64);
    const double p11 = 1 / (1 + std::exp(-3.0));
    require_values(nn::attention_weights(q, k, Tensor(), false), {p11, 1 - p11}, 1e-15);
    require_values(nn::scaled_dot_product_attention(q, k, v, Tensor(), false), {p11, 1 - p11, 0}, 1e-15);
}

TEST_CASE("multi-head attention without the scale equals scaled attention with W_Q times sqrt(d_k)", "[module]") {
    // softmax(Q K^T) = softmax((sqrt(d_k) Q) K^T / sqrt(d_k)): the same layer with the query
    // projection's weight and bias multiplied by sqrt(d_k), here d_k = 4.
    nn::MultiHeadAttention unscaled(8, 2), scaled(8, 2);
    unscaled.to(Dtype::float64);
    scaled.to(Dtype::float64);
    unscaled.scaled = false;
    {
        NoGradGuard no_grad;
        auto from = unscaled.named_parameters(), to = scaled.named_parameters();
        for (std::size_t i = 0; i < from.size(); ++i)
            to[i].second.copy_(from[i].first.rfind("w_q.", 0) == 0 ? from[i].second * 2.0 : from[i].second);
    }
    Tensor x = rand64({2, 5, 8}, 6).detach();
    Tensor causal = nn::subsequent_mask(5);
    require_values(unscaled.self_attention(x, causal), scaled.self_attention(x, causal).to_vector(), 1e-12);
    require_values(unscaled(x, x, x, causal), scaled(x, x, x, causal).to_vector(), 1e-12);
    require_values(unscaled.self_attention(x, Tensor(), nn::AttentionPattern::block_local(2, nn::Direction::causal)),
                   scaled.self_attention(x, Tensor(), nn::AttentionPattern::block_local(2, nn::Direction::causal))
                       .to_vector(),
                   1e-12);
}

TEST_CASE("003's dot-product attention: softmax(X X^T) X, each token weighting itself by |x|^2", "[module]") {
    // X = [[1, 0], [0, 2]]: X X^T = [[1, 0], [0, 4]]. Row 1: softmax(1, 0) = (e, 1) / (e + 1);
    // row 2: softmax(0, 4) = (1, e^4) / (1 + e^4). A = P X.
    Tensor x = tensor({1, 0, 0, 2}, {1, 2, 2}, Dtype::float64);
    const double a = std::exp(1.0) / (std::exp(1.0) + 1), b = 1 / (1 + std::exp(4.0));
    require_values(nn::dot_product_attention(x, x), {a, 2 * (1 - a), b, 2 * (1 - b)}, 1e-15);
    // Scaled by sqrt(d) = sqrt(2): row 1 softmax(1/sqrt 2, 0), row 2 softmax(0, 4/sqrt 2).
    const double as = 1 / (1 + std::exp(-1 / std::sqrt(2.0))), bs = 1 / (1 + std::exp(4 / std::sqrt(2.0)));
    require_values(nn::dot_product_attention(x, x, Tensor(), true), {as, 2 * (1 - as), bs, 2 * (1 - bs)}, 1e-15);
    // Over another sequence Y: a_1 = softmax(x_1 Y^T) Y (003's one-vector form); a mask hides key 2.
    Tensor y = tensor({1, 1, 3, 0, 0, 5}, {1, 3, 2}, Dtype::float64);
    Tensor mask = tensor({1, 0, 1}, {1, 1, 3}, Dtype::int64);
    const double e1 = std::exp(1.0), e2 = std::exp(0.0);  // x_1 . y_1 = 1, x_1 . y_3 = 0
    require_values(narrow(nn::dot_product_attention(x, y, mask), 1, 0, 1), {e1 / (e1 + e2), (e1 + 5 * e2) / (e1 + e2)},
                   1e-15);
}

TEST_CASE("dot-product attention and the scale reject bad input", "[errors]") {
    CHECK_THROWS_AS(nn::dot_product_attention(zeros({2, 3}), zeros({2, 4})), ShapeError);
    CHECK_THROWS_AS(nn::dot_product_attention(zeros({3}), zeros({3})), ShapeError);
    Tensor q = zeros({1, 2, 4});
    CHECK_THROWS_AS(multi_head_attention(q, q, q, 2, Tensor(), 0.0, false, default_generator(), std::nan("")),
                    ValueError);
}
