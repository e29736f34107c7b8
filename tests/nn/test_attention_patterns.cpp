// Local attention patterns without the causal mask, and the strided (dilated) pattern
// (004 §15.6.1): the masks by value, and the per-group computation against full attention
// under the pattern's mask, with and without a padding mask on the keys.
#include "check.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/attention_pattern.h"
#include "lectern/nn/multi_head_attention.h"

using namespace autograd;

namespace {
constexpr auto both_ways = nn::Direction::bidirectional;
}

TEST_CASE("bidirectional block_local_mask(5, 2): every key of the blocks {0,1}, {2,3}, {4}", "[module]") {
    require_values(nn::block_local_mask(5, 2, both_ways), {1, 1, 0, 0, 0,  //
                                                           1, 1, 0, 0, 0,  //
                                                           0, 0, 1, 1, 0,  //
                                                           0, 0, 1, 1, 0,  //
                                                           0, 0, 0, 0, 1},
                   0);
    CHECK(nn::block_local_mask(5, 2, both_ways).shape() == Shape{1, 5, 5});
}

TEST_CASE("strided_mask(6, 3): keys a multiple of 3 away, causal and in both directions", "[module]") {
    require_values(nn::strided_mask(6, 3, both_ways), {1, 0, 0, 1, 0, 0,  //
                                                       0, 1, 0, 0, 1, 0,  //
                                                       0, 0, 1, 0, 0, 1,  //
                                                       1, 0, 0, 1, 0, 0,  //
                                                       0, 1, 0, 0, 1, 0,  //
                                                       0, 0, 1, 0, 0, 1},
                   0);
    require_values(nn::strided_mask(6, 3), {1, 0, 0, 0, 0, 0,  //
                                            0, 1, 0, 0, 0, 0,  //
                                            0, 0, 1, 0, 0, 0,  //
                                            1, 0, 0, 1, 0, 0,  //
                                            0, 1, 0, 0, 1, 0,  //
                                            0, 0, 1, 0, 0, 1},
                   0);
    // stride 1 is full attention; a block as long as the sequence too
    require_values(nn::strided_mask(4, 1), nn::subsequent_mask(4).to_vector(), 0);
    require_values(nn::block_local_mask(4, 4, both_ways), std::vector<double>(16, 1.0), 0);
}

TEST_CASE("local attention computed per group equals full attention under the pattern's mask", "[module]") {
    nn::MultiHeadAttention mha(8, 2);
    mha.to(Dtype::float64);
    for (std::int64_t T : {9, 8, 7, 2}) {  // multiples of the group's size, padded groups, a stride longer than T
        Tensor x = rand64({2, T, 8}, static_cast<std::uint64_t>(T)).detach();
        INFO("T = " << T);
        require_values(mha.self_attention(x, Tensor(), nn::AttentionPattern::block_local(3, both_ways)),
                       mha(x, x, x, nn::block_local_mask(T, 3, both_ways)).to_vector(), 1e-12);
        for (nn::Direction d : {nn::Direction::causal, both_ways}) {
            INFO((d == both_ways ? "bidirectional" : "causal") << " strided, S = 3");
            Tensor local = mha.self_attention(x, Tensor(), nn::AttentionPattern::strided(3, d));
            CHECK(local.shape() == x.shape());
            require_values(local, mha(x, x, x, nn::strided_mask(T, 3, d)).to_vector(), 1e-12);
        }
    }
}

TEST_CASE("local attention with a padding mask hides the padded keys as full attention does", "[module]") {
    nn::MultiHeadAttention mha(8, 2);
    mha.to(Dtype::float64);
    Tensor x = rand64({2, 7, 8}, 4).detach();
    Tensor pad = tensor({1, 1, 1, 1, 1, 0, 0,  //
                         1, 1, 1, 1, 1, 1, 1},
                        {2, 1, 7}, Dtype::int64);
    for (nn::Direction d : {nn::Direction::causal, both_ways}) {
        INFO((d == both_ways ? "bidirectional" : "causal"));
        require_values(mha.self_attention(x, pad, nn::AttentionPattern::block_local(3, d)),
                       mha(x, x, x, nn::mask_and(nn::block_local_mask(7, 3, d), pad)).to_vector(), 1e-12);
        require_values(mha.self_attention(x, pad, nn::AttentionPattern::strided(2, d)),
                       mha(x, x, x, nn::mask_and(nn::strided_mask(7, 2, d), pad)).to_vector(), 1e-12);
    }
}

// The local patterns under one entry are held to their masks above; here the full pattern.
TEST_CASE("self-attention's full pattern: causal adds the subsequent mask to `mask`, bidirectional adds none",
          "[module]") {
    using Pattern = nn::AttentionPattern;
    nn::MultiHeadAttention mha(8, 2);
    mha.to(Dtype::float64);
    Tensor x = rand64({2, 7, 8}, 6).detach();
    Tensor pad = tensor({1, 1, 1, 1, 1, 1, 0,  //
                         1, 1, 1, 1, 1, 1, 1},
                        {2, 1, 7}, Dtype::int64);
    const Tensor none;
    for (nn::Direction d : {nn::Direction::causal, both_ways}) {
        INFO((d == both_ways ? "bidirectional" : "causal"));
        const Tensor all = d == both_ways ? none : nn::subsequent_mask(7);
        require_values(mha.self_attention(x, none, Pattern::full(d)), mha(x, x, x, all).to_vector(), 1e-12);
        require_values(mha.self_attention(x, pad, Pattern::full(d)),
                       mha(x, x, x, all.defined() ? nn::mask_and(all, pad) : pad).to_vector(), 1e-12);
    }
    // The default pattern is full and bidirectional: the mask alone decides, as the decoder's
    // padding AND causal mask does.
    const Tensor decoder_mask = nn::mask_and(nn::subsequent_mask(7), pad);
    require_values(mha.self_attention(x, decoder_mask), mha(x, x, x, decoder_mask).to_vector(), 1e-12);
    // The hybrid's stride defaults to its block.
    require_values(mha.self_attention(x, none, Pattern{Pattern::Kind::hybrid, 2, 0, both_ways}),
                   mha.self_attention(x, none, Pattern::hybrid(2, 2, both_ways)).to_vector(), 0);
}

TEST_CASE("strided attention: a token at a position not a multiple of S away changes nothing", "[module]") {
    nn::MultiHeadAttention mha(8, 2);
    mha.to(Dtype::float64);
    Tensor x = rand64({1, 9, 8}, 5).detach();
    Tensor before = mha.self_attention(x, Tensor(), nn::AttentionPattern::strided(3, both_ways));
    Tensor changed = x.clone();
    for (std::int64_t k = 0; k < 8; ++k) changed.set({0, 4, k}, 5.0 + k);  // position 4: residue 1
    Tensor after = mha.self_attention(changed, Tensor(), nn::AttentionPattern::strided(3, both_ways));
    for (std::int64_t p : {0, 2, 3, 5, 6, 8})  // residues 0 and 2
        require_values(narrow(after, 1, p, 1), narrow(before, 1, p, 1).to_vector(), 1e-12);
    for (std::int64_t p : {1, 7})  // residue 1, and both directions: 1 sees 4 too
        CHECK(std::abs(after.at({0, p, 0}) - before.at({0, p, 0})) > 1e-6);
}

TEST_CASE("strided attention and its masks reject bad strides and key masks", "[errors]") {
    nn::MultiHeadAttention mha(4, 2);
    Tensor x = zeros({2, 4, 4});
    CHECK_THROWS_AS(mha.self_attention(x, Tensor(), nn::AttentionPattern::strided(0, nn::Direction::causal)),
                    ValueError);
    CHECK_THROWS_AS(nn::strided_mask(4, 0), ValueError);
    CHECK_THROWS_AS(nn::strided_mask(0, 2), ValueError);
    CHECK_THROWS_AS(mha.self_attention(x, zeros({2, 1, 3}, Dtype::int64),
                                       nn::AttentionPattern::block_local(2, both_ways)),
                    ShapeError);
    CHECK_THROWS_AS(mha.self_attention(x, zeros({2, 4}, Dtype::int64), nn::AttentionPattern::strided(2, both_ways)),
                    ShapeError);
    CHECK_THROWS_AS(mha.self_attention(x, zeros({2, 1, 4}), nn::AttentionPattern::strided(2, both_ways)), DtypeError);
}
