// Additive attention (001 "Scaled Dot-Product Attention": "a feed-forward network with a single
// hidden layer"): e_ij = v^T tanh(W_q q_i + W_k k_j), P = softmax(E + M), Z = P V.
#include <algorithm>
#include <cmath>

#include "check.h"
#include "lectern/nn/additive_attention.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/multi_head_attention.h"

using namespace autograd;

TEST_CASE("additive attention by hand: e_ij = v^T tanh(W_q q_i + W_k k_j), then softmax and P V", "[module]") {
    // W_q = W_k = I, v = (1, -1). Query q = (0.5, 0); keys k_1 = (0, 0.5), k_2 = (0.5, 0.5):
    //   e_1 = tanh(0.5) - tanh(0.5) = 0,   e_2 = tanh(1) - tanh(0.5) = 0.76159 - 0.46212 = 0.29947,
    //   P = softmax(0, 0.29947) = (0.42569, 0.57431). Values V = I, so Z = P.
    nn::AdditiveAttention attn(2, 2, 2);
    attn.to(Dtype::float64);
    {
        NoGradGuard no_grad;
        attn.w_q.copy_(tensor({1, 0, 0, 1}, {2, 2}, Dtype::float64));
        attn.w_k.copy_(tensor({1, 0, 0, 1}, {2, 2}, Dtype::float64));
        attn.v.copy_(tensor({1, -1}, {2}, Dtype::float64));
    }
    Tensor q = tensor({0.5, 0}, {1, 1, 2}, Dtype::float64);
    Tensor k = tensor({0, 0.5, 0.5, 0.5}, {1, 2, 2}, Dtype::float64);
    Tensor values = tensor({1, 0, 0, 1}, {1, 2, 2}, Dtype::float64);
    const double e2 = std::tanh(1.0) - std::tanh(0.5), p2 = 1 / (1 + std::exp(-e2));
    REQUIRE(std::abs(p2 - 0.57431) < 1e-5);
    require_values(attn.weights(q, k), {1 - p2, p2}, 1e-15);
    require_values(attn(q, k, values), {1 - p2, p2}, 1e-15);
    // A mask hiding key 2 leaves all the weight on key 1; hiding both leaves a row of zeros.
    require_values(attn(q, k, values, tensor({1, 0}, {1, 1, 2}, Dtype::int64)), {1, 0}, 1e-15);
    require_values(attn(q, k, values, tensor({0, 0}, {1, 1, 2}, Dtype::int64)), {0, 0}, 1e-15);
}

TEST_CASE("additive attention's scores do not grow with d_k as q.k does (001's claim's reason)", "[module]") {
    // |e_ij| <= sum |v| whatever the inputs: tanh is bounded. With v = 1/d_a the score of a key
    // lies in [-1, 1], so P over 2 keys stays within (1/(1+e^2), e^2/(1+e^2)).
    const std::int64_t d = 256;
    nn::AdditiveAttention attn(d, d, d);
    attn.to(Dtype::float64);
    {
        NoGradGuard no_grad;
        attn.v.copy_(full({d}, 1.0 / static_cast<double>(d), Dtype::float64));
    }
    Tensor q = rand64({1, 4, d}, 3).detach() * 30.0, k = rand64({1, 2, d}, 4).detach() * 30.0;
    const double bound = std::exp(2.0) / (1 + std::exp(2.0));
    for (double p : attn.weights(q, k).to_vector()) REQUIRE(p <= bound);
}

TEST_CASE("multi-head attention with additive scores: each head is additive attention on its columns", "[module]") {
    // head h: P_h = softmax(v_h^T tanh(q W_h^Q + k W_h^K)), W_h^Q the columns h d_k .. (h + 1) d_k of w_q.
    nn::MultiHeadAttention mha(8, 2);
    mha.to(Dtype::float64);
    mha.use_additive_scores();
    REQUIRE(mha.compatibility() == nn::Compatibility::additive);
    const auto params = mha.named_parameters();
    REQUIRE(std::count_if(params.begin(), params.end(), [](const auto& p) { return p.first == "v"; }) == 1);
    REQUIRE(mha.v.shape() == Shape{2, 4});
    Tensor x = rand64({2, 5, 8}, 1).detach(), memory = rand64({2, 3, 8}, 2).detach();
    Tensor pad = tensor({1, 1, 0, 1, 1, 1}, {2, 1, 3}, Dtype::int64);
    Tensor y = mha(x, memory, memory, pad);
    Tensor q = mha.w_q->forward(x), k = mha.w_k->forward(memory), v = mha.w_v->forward(memory);
    std::vector<Tensor> heads;
    for (std::int64_t h = 0; h < 2; ++h) {
        Tensor p =
            nn::additive_attention_weights(narrow(q, 2, 4 * h, 4), narrow(k, 2, 4 * h, 4), select(mha.v, 0, h), pad);
        require_values(select(mha.last_attention(), 1, h), p.to_vector(), 1e-14);
        heads.push_back(matmul(p, narrow(v, 2, 4 * h, 4)));
    }
    require_values(y, mha.w_o->forward(concat(heads, 2)).to_vector(), 1e-14);
    // Self-attention, its causal form and the cached decoding steps agree with forward().
    Tensor causal = nn::subsequent_mask(5);
    require_values(mha.self_attention(x, causal), mha(x, x, x, causal).to_vector(), 1e-14);
    nn::KVCache cache;
    std::vector<Tensor> steps;
    for (std::int64_t t = 0; t < 5; ++t) steps.push_back(mha.forward_cached(narrow(x, 1, t, 1), cache));
    require_values(concat(steps, 1), mha(x, x, x, causal).to_vector(), 1e-13);
}
