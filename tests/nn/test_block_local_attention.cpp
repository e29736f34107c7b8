// Block-local attention (004 §15.6.1, table 15.1): the masks by value, and the
// per-block computation against full attention under the block mask.
#include "check.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/multi_head_attention.h"

using namespace autograd;

TEST_CASE("block_local_mask(5, 2): causal within the blocks {0,1}, {2,3}, {4}", "[module]") {
    require_values(nn::block_local_mask(5, 2), {1, 0, 0, 0, 0,  //
                                                1, 1, 0, 0, 0,  //
                                                0, 0, 1, 0, 0,  //
                                                0, 0, 1, 1, 0,  //
                                                0, 0, 0, 0, 1});
    CHECK(nn::block_local_mask(5, 2).shape() == Shape{1, 5, 5});
}

TEST_CASE("causal_mask: full causal equals subsequent_mask; a block at least n long changes nothing", "[module]") {
    require_values(nn::causal_mask(4), nn::subsequent_mask(4).to_vector(), 0);
    require_values(nn::block_local_mask(4, 4), nn::subsequent_mask(4).to_vector(), 0);
}

TEST_CASE("causal_mask for cached decoding: queries at positions past.. see their own block's keys", "[module]") {
    // queries at positions 3 and 4 over keys 0..4, blocks of 3: {0,1,2}, {3,4,5}
    Tensor m = nn::causal_mask(2, 3, 3);
    CHECK(m.shape() == Shape{1, 2, 5});
    require_values(m, {0, 0, 0, 1, 0,  //
                       0, 0, 0, 1, 1});
    require_values(nn::causal_mask(1, 3), {1, 1, 1, 1});  // no block: every earlier key
}

TEST_CASE("block-local attention computed per block equals full attention under the block mask", "[module]") {
    nn::MultiHeadAttention mha(8, 2);
    mha.to(Dtype::float64);
    for (std::int64_t T : {8, 7, 3}) {  // a multiple of L, a padded last block, one short block
        Tensor x = rand64({2, T, 8}, static_cast<std::uint64_t>(T)).detach();
        Tensor full = mha(x, x, x, nn::block_local_mask(T, 4));
        Tensor local = mha.self_attention(x, Tensor(), nn::AttentionPattern::block_local(4, nn::Direction::causal));
        CHECK(local.shape() == full.shape());
        require_values(local, full.to_vector(), 1e-12);
    }
}

TEST_CASE("block-local attention: a token in another block changes nothing, one in the same block does", "[module]") {
    nn::MultiHeadAttention mha(8, 2);
    mha.to(Dtype::float64);
    Tensor x = rand64({1, 8, 8}, 3).detach();
    Tensor before = mha.self_attention(x, Tensor(), nn::AttentionPattern::block_local(4, nn::Direction::causal));
    Tensor changed = x.clone();
    for (std::int64_t k = 0; k < 8; ++k) changed.set({0, 1, k}, 5.0 + k);  // position 1, in block {0..3}
    Tensor after = mha.self_attention(changed, Tensor(), nn::AttentionPattern::block_local(4, nn::Direction::causal));
    require_values(narrow(after, 1, 4, 4), narrow(before, 1, 4, 4).to_vector(), 1e-12);  // block {4..7}
    CHECK(std::abs(after.at({0, 2, 0}) - before.at({0, 2, 0})) > 1e-6);
}

TEST_CASE("block-local attention and masks reject a block size that is not positive", "[errors]") {
    nn::MultiHeadAttention mha(4, 2);
    CHECK_THROWS_AS(mha.self_attention(zeros({1, 4, 4}), Tensor(),
                                       nn::AttentionPattern::block_local(0, nn::Direction::causal)),
                    ValueError);
    CHECK_THROWS_AS(nn::block_local_mask(4, 0), ValueError);
    CHECK_THROWS_AS(nn::causal_mask(0), ValueError);
    CHECK_THROWS_AS(nn::causal_mask(2, -1), ValueError);
}
