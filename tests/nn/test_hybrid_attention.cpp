// The hybrid of 004 §15.6.1 (block-local and strided patterns combined, split by head): its
// mask by value, the per-group computation against full attention under each head's mask,
// and the reach the split buys in two layers.
#include "check.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/multi_head_attention.h"

using namespace autograd;

namespace {

constexpr auto both_ways = nn::Direction::bidirectional;

// Full attention with head h under row h of `masks` [H, T, T] (AND key_mask): each head's
// columns of Q, K and V through the fused op alone, the heads side by side, then W^O.
Tensor masked_per_head(const nn::MultiHeadAttention& mha, const Tensor& x, const Tensor& masks,
                       const Tensor& key_mask) {
    const Tensor q = mha.w_q->forward(x), k = mha.w_k->forward(x), v = mha.w_v->forward(x);
    std::vector<Tensor> z;
    for (std::int64_t h = 0; h < mha.heads; ++h) {
        auto head = [&](const Tensor& t) { return narrow(t, 2, h * mha.d_k, mha.d_k); };
        Tensor mask = narrow(masks, 0, h, 1);  // [1, T, T]
        if (key_mask.defined()) mask = nn::mask_and(mask, key_mask);
        z.push_back(multi_head_attention(head(q), head(k), head(v), 1, mask).z);
    }
    return mha.w_o->forward(concat(z, 2));
}

// reach[i][j]: position i hears from j through `layers` layers whose heads together read
// the union of masks' rows (a layer's residual also keeps what i held).
std::vector<std::vector<bool>> reach(const Tensor& masks, std::int64_t layers) {
    const std::int64_t H = masks.size(0), n = masks.size(1);
    std::vector<std::vector<bool>> one(n, std::vector<bool>(n, false));
    for (std::int64_t h = 0; h < H; ++h)
        for (std::int64_t i = 0; i < n; ++i)
            for (std::int64_t j = 0; j < n; ++j) one[i][j] = one[i][j] || i == j || masks.at({h, i, j}) != 0;
    std::vector<std::vector<bool>> r = one;
    for (std::int64_t l = 1; l < layers; ++l) {
        std::vector<std::vector<bool>> next(n, std::vector<bool>(n, false));
        for (std::int64_t i = 0; i < n; ++i)
            for (std::int64_t m = 0; m < n; ++m)
                if (one[i][m])
                    for (std::int64_t j = 0; j < n; ++j) next[i][j] = next[i][j] || r[m][j];
        r = next;
    }
    return r;
}

}  // namespace

TEST_CASE("hybrid_mask(4, L 2, S 2, H): the first H - H/2 heads in blocks of 2, the others every 2nd key", "[module]") {
    require_values(nn::hybrid_mask(4, 2, 2, 3, both_ways), {1, 1, 0, 0,  // heads 0 and 1: blocks {0,1}, {2,3}
                                                            1, 1, 0, 0,  //
                                                            0, 0, 1, 1,  //
                                                            0, 0, 1, 1,  //
                                                            1, 1, 0, 0,  //
                                                            1, 1, 0, 0,  //
                                                            0, 0, 1, 1,  //
                                                            0, 0, 1, 1,  //
                                                            1, 0, 1, 0,  // head 2: residues {0,2}, {1,3}
                                                            0, 1, 0, 1,  //
                                                            1, 0, 1, 0,  //
                                                            0, 1, 0, 1},
                   0);
    require_values(nn::hybrid_mask(4, 2, 2, 2), {1, 0, 0, 0,  // head 0, causal blocks
                                                 1, 1, 0, 0,  //
                                                 0, 0, 1, 0,  //
                                                 0, 0, 1, 1,  //
                                                 1, 0, 0, 0,  // head 1, causal stride
                                                 0, 1, 0, 0,  //
                                                 1, 0, 1, 0,  //
                                                 0, 1, 0, 1},
                   0);
    CHECK(nn::hybrid_mask(4, 2, 2, 3).shape() == Shape{3, 4, 4});
}

TEST_CASE("hybrid attention computed per group equals full attention under each head's mask", "[module]") {
    for (std::int64_t H : {2, 3}) {
        nn::MultiHeadAttention mha(4 * H, H);
        mha.to(Dtype::float64);
        for (std::int64_t T : {9, 8, 7, 2}) {  // whole groups, padded groups, a stride longer than T
            Tensor x = rand64({2, T, 4 * H}, static_cast<std::uint64_t>(10 * T + H)).detach();
            Tensor pad = ones({2, 1, T}, Dtype::int64);
            pad.set({1, 0, T - 1}, 0.0);  // the second sequence's last key is padding
            for (nn::Direction d : {nn::Direction::causal, both_ways})
                for (auto [L, S] : {std::pair<std::int64_t, std::int64_t>{3, 3}, {3, 2}}) {
                    INFO("H = " << H << ", T = " << T << (d == both_ways ? ", bidirectional" : ", causal")
                                << ", L = " << L << ", S = " << S);
                    Tensor local = mha.self_attention(x, Tensor(), nn::AttentionPattern::hybrid(L, S, d));
                    CHECK(local.shape() == x.shape());
                    require_values(local, masked_per_head(mha, x, nn::hybrid_mask(T, L, S, H, d), Tensor()).to_vector(),
                                   1e-12);
                    require_values(mha.self_attention(x, pad, nn::AttentionPattern::hybrid(L, S, d)),
                                   masked_per_head(mha, x, nn::hybrid_mask(T, L, S, H, d), pad).to_vector(), 1e-12);
                }
        }
    }
}

TEST_CASE("hybrid attention with additive scores equals full attention under each head's mask", "[module]") {
    nn::MultiHeadAttention mha(6, 3), plain(6, 3);  // plain: the same heads, W^O the identity
    mha.use_additive_scores();
    plain.use_additive_scores();
    mha.to(Dtype::float64);
    plain.to(Dtype::float64);
    plain.load_state_dict(mha.state_dict());
    {
        NoGradGuard no_grad;
        plain.w_o->weight.fill_(0);
        plain.w_o->bias.fill_(0);
        for (std::int64_t i = 0; i < 6; ++i) plain.w_o->weight.set({i, i}, 1.0);
    }
    Tensor x = rand64({2, 7, 6}, 3).detach();
    for (nn::Direction d : {nn::Direction::causal, both_ways}) {
        INFO((d == both_ways ? "bidirectional" : "causal"));
        // heads 0 and 1 read blocks of 3, head 2 every 3rd key: their columns of the two full runs
        Tensor heads = concat({narrow(plain(x, x, x, nn::block_local_mask(7, 3, d)), 2, 0, 4),
                               narrow(plain(x, x, x, nn::strided_mask(7, 3, d)), 2, 4, 2)},
                              2);
        require_values(mha.self_attention(x, Tensor(), nn::AttentionPattern::hybrid(3, 3, d)),
                       mha.w_o->forward(heads).to_vector(), 1e-12);
    }
}

TEST_CASE(
    "hybrid pattern with S <= L: both ways every position reaches every other in two layers, causal never "
    "a larger residue",
    "[module]") {
    for (std::int64_t n : {9, 8}) {  // L = 3 divides 9; 8 leaves a short last block
        INFO("n = " << n << ", L = S = 3");
        const auto two = reach(nn::hybrid_mask(n, 3, 3, 2, both_ways), 2);
        const auto one = reach(nn::hybrid_mask(n, 3, 3, 2, both_ways), 1);
        std::int64_t unreached_in_one = 0;
        for (std::int64_t i = 0; i < n; ++i)
            for (std::int64_t j = 0; j < n; ++j) {
                CHECK(two[i][j]);
                unreached_in_one += !one[i][j];
            }
        CHECK(unreached_in_one > 0);
        // Causal: a block hop keeps the block and raises the residue mod L, a strided hop keeps
        // the residue, so j reaches i (at any depth) only when j <= i and j's residue <= i's.
        const auto deep = reach(nn::hybrid_mask(n, 3, 3, 2), n);
        for (std::int64_t i = 0; i < n; ++i)
            for (std::int64_t j = 0; j < n; ++j) {
                INFO("i = " << i << ", j = " << j);
                CHECK(deep[i][j] == (j <= i && j % 3 <= i % 3));
            }
    }
    // S = 2 < L = 4 reaches everything in two layers too; S = 3 > L = 2 does not: 1's block {0, 1}
    // holds no residue 2 mod 3 (j = 2's) and 2's block {2, 3} no residue 1 (i's); so for 0 and 5.
    for (const auto& row : reach(nn::hybrid_mask(10, 4, 2, 2, both_ways), 2))
        for (bool r : row) CHECK(r);
    const auto wide = reach(nn::hybrid_mask(9, 2, 3, 2, both_ways), 2);
    CHECK_FALSE(wide[1][2]);
    CHECK_FALSE(wide[0][5]);
    CHECK(wide[0][2]);  // 2's block {2, 3} holds 0's residue: 2 -> 3 -> 0
}

TEST_CASE("hybrid attention and its mask reject one head and bad sizes", "[errors]") {
    Tensor x = zeros({2, 4, 4});
    CHECK_THROWS_AS(nn::MultiHeadAttention(4, 1).self_attention(x, Tensor(),
                                                                nn::AttentionPattern::hybrid(2, 2,
                                                                                             nn::Direction::causal)),
                    ValueError);
    CHECK_THROWS_AS(nn::MultiHeadAttention(4, 2).self_attention(x, Tensor(),
                                                                nn::AttentionPattern::hybrid(0, 2,
                                                                                             nn::Direction::causal)),
                    ValueError);
    CHECK_THROWS_AS(nn::MultiHeadAttention(4, 2).self_attention(  // a stride of 0 is the block's length
                        x, Tensor(), nn::AttentionPattern::hybrid(2, -1, nn::Direction::causal)),
                    ValueError);
    CHECK_THROWS_AS(nn::MultiHeadAttention(4, 2).self_attention(x, zeros({2, 1, 3}, Dtype::int64),
                                                                nn::AttentionPattern::hybrid(2, 2, both_ways)),
                    ShapeError);
    CHECK_THROWS_AS(nn::hybrid_mask(4, 2, 2, 1), ValueError);
    CHECK_THROWS_AS(nn::hybrid_mask(4, 0, 2, 2), ValueError);
    CHECK_THROWS_AS(nn::hybrid_mask(4, 2, 0, 2), ValueError);
    CHECK_THROWS_AS(nn::hybrid_mask(0, 2, 2, 2), ValueError);
}
