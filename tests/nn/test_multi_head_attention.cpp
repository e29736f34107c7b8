// Multi-head attention and the notes' claims about it.
#include "check.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/multi_head_attention.h"

using namespace autograd;

TEST_CASE("attention weights are rows of probabilities (002)", "[module]") {
    nn::MultiHeadAttention mha(8, 2);
    Generator g(1);
    Tensor x = randn({2, 5, 8}, g);
    mha(x, x, x, nn::subsequent_mask(5));
    Tensor p = mha.last_attention();
    CHECK(p.shape() == Shape{2, 2, 5, 5});
    require_values(sum(p, -1), std::vector<double>(20, 1.0), 1e-6);
    for (double v : p.to_vector()) REQUIRE(v >= 0);
    CHECK(p.at({1, 1, 2, 3}) == 0);  // masked: key 3 is after query 2
}

TEST_CASE("with a causal mask, changing a later token leaves earlier outputs unchanged (001, 002)", "[module]") {
    nn::MultiHeadAttention mha(8, 2);
    mha.to(Dtype::float64);
    Tensor x = rand64({1, 6, 8}, 1).detach();
    Tensor mask = nn::subsequent_mask(6);
    Tensor before = mha(x, x, x, mask);
    Tensor changed = x.clone();
    for (std::int64_t k = 0; k < 8; ++k) changed.set({0, 4, k}, 100.0 + k);
    Tensor after = mha(changed, changed, changed, mask);
    require_values(narrow(after, 1, 0, 4), narrow(before, 1, 0, 4).to_vector(), 1e-12);
    CHECK(std::abs(after.at({0, 4, 0}) - before.at({0, 4, 0})) > 1e-6);
}

TEST_CASE("self-attention's one stacked projection equals the three projections", "[module]") {
    // mha.self_attention(x) takes the stacked path (one product with [W^Q; W^K; W^V]);
    // mha(x, y, y) with y a copy of x takes the three Linears. Same outputs, and the same
    // gradients for x and every weight and bias.
    nn::MultiHeadAttention mha(12, 3);
    mha.to(Dtype::float64);
    Tensor x = rand64({2, 5, 12}, 3), y = rand64({2, 5, 12}, 3), w = rand64({2, 5, 12}, 4).detach();
    auto grads = [&](const Tensor& loss, std::vector<Tensor> inputs) {
        mha.zero_grad();
        for (Tensor t : inputs) t.zero_grad();
        loss.backward();
        std::vector<std::vector<double>> out;
        Tensor dx = inputs[0].grad();
        for (std::size_t i = 1; i < inputs.size(); ++i) dx = dx + inputs[i].grad();
        out.push_back(dx.to_vector());
        for (const auto& [name, p] : mha.named_parameters()) out.push_back(p.grad().to_vector());
        return out;
    };
    Tensor stacked = mha.self_attention(x, nn::subsequent_mask(5)), three = mha(x, y, y, nn::subsequent_mask(5));
    require_values(stacked, three.to_vector(), 1e-14);
    const auto gs = grads(sum(stacked * w), {x}), gt = grads(sum(three * w), {x, y});
    REQUIRE(gs.size() == gt.size());
    for (std::size_t i = 0; i < gs.size(); ++i) {
        INFO("gradient " << i << " (0: the input, then the parameters in order)");
        REQUIRE(gs[i].size() == gt[i].size());
        for (std::size_t j = 0; j < gs[i].size(); ++j) REQUIRE(gs[i][j] == Approx(gt[i][j]).margin(1e-13));
    }
}

TEST_CASE("self-attention without positions is permutation-equivariant: A(RX) = R A(X) (002)", "[module]") {
    nn::MultiHeadAttention mha(8, 4);
    mha.to(Dtype::float64);
    Tensor x = rand64({1, 5, 8}, 2).detach();
    Tensor perm = tensor({3, 0, 4, 1, 2}, Dtype::int64);  // R
    Tensor rx = index_select(x, 1, perm);
    Tensor a_rx = mha(rx, rx, rx);
    Tensor r_ax = index_select(mha(x, x, x), 1, perm);
    require_values(a_rx, r_ax.to_vector(), 1e-12);
}

TEST_CASE("for unit-variance q and k, q.k has variance d_k and the scaled score variance 1 (001)", "[module]") {
    Generator g(3);
    const std::int64_t n = 20000, d_k = 64;
    Tensor q = randn({n, d_k}, g, Dtype::float64), k = randn({n, d_k}, g, Dtype::float64);
    Tensor dots = sum(q * k, -1);
    auto variance = [](const Tensor& t) { return mean(pow(t - mean(t), 2.0)).item(); };
    CHECK(variance(dots) == Approx(64).epsilon(0.05));
    CHECK(variance(dots / std::sqrt(64.0)) == Approx(1).epsilon(0.05));
}

TEST_CASE("a padding mask hides the padded keys", "[module]") {
    nn::MultiHeadAttention mha(4, 2);
    Tensor ids = tensor({5, 6, 0, 0, 7, 8, 9, 0}, {2, 4}, Dtype::int64);
    Tensor x = ones({2, 4, 4});
    mha(x, x, x, nn::padding_mask(ids, 0));
    Tensor p = mha.last_attention();
    CHECK(p.at({0, 1, 3, 2}) == 0);
    CHECK(p.at({0, 0, 0, 1}) == Approx(0.5));
    CHECK(p.at({1, 0, 2, 2}) == Approx(1.0 / 3));
}

TEST_CASE("cached attention equals attention over the whole prefix", "[module]") {
    nn::MultiHeadAttention self(8, 2), cross(8, 2);
    self.to(Dtype::float64);
    cross.to(Dtype::float64);
    Tensor x = rand64({2, 5, 8}, 4).detach(), memory = rand64({2, 3, 8}, 5).detach();
    Tensor full_self = self(x, x, x, nn::subsequent_mask(5));
    Tensor full_cross = cross(x, memory, memory);
    nn::KVCache self_cache, cross_cache;
    for (std::int64_t t = 0; t < 5; ++t) {
        Tensor step = narrow(x, 1, t, 1);
        require_values(self.forward_cached(step, self_cache), narrow(full_self, 1, t, 1).to_vector(), 1e-12);
        require_values(cross.forward_memory_cached(step, memory, cross_cache), narrow(full_cross, 1, t, 1).to_vector(),
                       1e-12);
    }
    CHECK(self_cache.length() == 5);
    CHECK(cross_cache.length() == 3);
}

TEST_CASE("a float32 cache decoded without gradients keeps each head in place, with the same bits", "[module]") {
    nn::MultiHeadAttention self(8, 2), cross(8, 2);
    Generator gen(6);
    Tensor x = randn({2, 20, 8}, gen), memory = randn({2, 3, 8}, gen);
    nn::KVCache self_kept, cross_kept, self_concat, cross_concat;  // by head (no gradient); concatenated
    std::vector<Tensor> kept, concatenated;
    for (std::int64_t t = 0; t < 20; ++t) {  // past 16 positions: the buffers' room doubles
        Tensor step = narrow(x, 1, t, 1);
        concatenated.push_back(self.forward_cached(step, self_concat));
        concatenated.push_back(cross.forward_memory_cached(step, memory, cross_concat));
        NoGradGuard no_grad;
        kept.push_back(self.forward_cached(step, self_kept));
        kept.push_back(cross.forward_memory_cached(step, memory, cross_kept));
    }
    CHECK(self_kept.by_head());
    CHECK(!self_concat.by_head());
    CHECK(self_kept.length() == 20);
    CHECK(self_kept.keys_t.shape() == Shape{2, 2, 4, 32});
    CHECK(cross_kept.length() == 3);
    for (std::size_t i = 0; i < kept.size(); ++i) require_values(kept[i], concatenated[i].to_vector(), 0);
    // Beam search's reorder keeps the entries asked for, in either form.
    const Tensor rows = tensor({1, 1}, {2}, Dtype::int64);
    self_kept.reorder(rows), self_concat.reorder(rows);
    Tensor next = narrow(x, 1, 0, 1);
    const Tensor by_grad = self.forward_cached(next, self_concat);
    NoGradGuard no_grad;
    require_values(self.forward_cached(next, self_kept), by_grad.to_vector(), 0);
}

TEST_CASE("a cache filled for decoding cannot go on under gradients", "[errors]") {
    nn::MultiHeadAttention mha(4, 2);
    nn::KVCache cache;
    {
        NoGradGuard no_grad;
        mha.forward_cached(zeros({1, 1, 4}), cache);
    }
    CHECK_THROWS_WITH(mha.forward_cached(zeros({1, 1, 4}), cache), Catch::Contains("clear() it"));
    cache.clear();
    CHECK(mha.forward_cached(zeros({1, 1, 4}), cache).requires_grad());
    CHECK(!cache.by_head());
}

TEST_CASE("multi-head attention rejects bad shapes and masks", "[errors]") {
    CHECK_THROWS_AS(nn::MultiHeadAttention(6, 4), ValueError);
    nn::MultiHeadAttention mha(4, 2);
    CHECK_THROWS_WITH(mha(zeros({2, 3, 5}), zeros({2, 3, 4}), zeros({2, 3, 4})),
                      "MultiHeadAttention: query must be [B, T, 4], got [2, 3, 5]");
    CHECK_THROWS_AS(mha(zeros({2, 3, 4}), zeros({2, 3, 4}), zeros({2, 2, 4})), ShapeError);
    CHECK_THROWS_AS(mha(zeros({2, 3, 4}), zeros({2, 3, 4}), zeros({2, 3, 4}), nn::subsequent_mask(4)), ShapeError);
    CHECK_THROWS_AS(mha(zeros({2, 3, 4}), zeros({2, 3, 4}), zeros({2, 3, 4}), ones({1, 3, 3})), DtypeError);
}

TEST_CASE("masks: subsequent_mask, padding_mask and their AND", "[module]") {
    require_values(nn::subsequent_mask(3), {1, 0, 0, 1, 1, 0, 1, 1, 1});
    Tensor pad = nn::padding_mask(tensor({4, 0}, {1, 2}, Dtype::int64), 0);
    require_values(pad, {1, 0});
    require_values(nn::mask_and(pad, nn::subsequent_mask(2)), {1, 0, 1, 0});
    CHECK_THROWS_AS(nn::subsequent_mask(0), ValueError);
}

TEST_CASE("keys and values of their own widths are checked, and self-attention needs them at d_model", "[errors]") {
    nn::MultiHeadAttention mha(4, 2, 3, 5);
    Tensor q = zeros({2, 6, 4}), k = zeros({2, 7, 3}), v = zeros({2, 7, 5});
    CHECK(mha(q, k, v).shape() == Shape{2, 6, 4});
    CHECK_THROWS_WITH(mha(q, v, v), "MultiHeadAttention: key must be [B, T, 3], got [2, 7, 5]");
    CHECK_THROWS_WITH(mha(q, k, k), "MultiHeadAttention: value must be [B, T, 5], got [2, 7, 3]");
    CHECK_THROWS_AS(mha(q, k, narrow(v, 1, 0, 6)), ShapeError);  // 7 keys, 6 values
    nn::KVCache cache;
    CHECK_THROWS_WITH(mha.forward_cached(q, cache), Catch::Contains("needs kdim = vdim = d_model 4, not 3 and 5"));
    CHECK_THROWS_WITH(mha.self_attention(q, Tensor(), nn::AttentionPattern::block_local(2, nn::Direction::causal)),
                      Catch::Contains("needs kdim = vdim = d_model 4"));
    CHECK_THROWS_WITH(mha.forward_memory_cached(q, k, cache), Catch::Contains("kdim 3 != vdim 5"));
    CHECK_THROWS_AS(nn::MultiHeadAttention(4, 2, 0, 5), ValueError);
}
