// The conformer block (models/conformer_block.h; 004 §15.5.7).
#include "check.h"
#include "lectern/models/conformer_block.h"

using namespace autograd;

namespace {

nn::BlockConfig small() { return {8, 2, 16, 0.0}; }

}  // namespace

TEST_CASE("the macaron half: a conformer block with its later sublayers silent is LN(x + FFN(LN(x)) / 2)", "[model]") {
    // With the outputs of attention, the convolution and the second FFN zeroed, three residuals
    // pass x'' through, and the block is the final norm of x + 1/2 FFN_1(LN_0(x)).
    Generator gen(5);
    models::ConformerBlock block(small(), 3, gen);
    block.to(Dtype::float64);
    NoGradGuard no_grad;
    for (Tensor* t : {&block.self_attn->w_o->weight, &block.self_attn->w_o->bias, &block.conv->pointwise_out->weight,
                      &block.conv->pointwise_out->bias, &block.ffn_2->w_2->weight, &block.ffn_2->w_2->bias})
        t->fill_(0);
    Tensor x = uniform({2, 5, 8}, -1, 1, gen, Dtype::float64);
    const Tensor half = (*block.ffn_1)((*(*block.sublayer)[0].norm)(x)) * 0.5;
    require_values(block(x), (*block.final_norm)(x + half).to_vector(), 1e-12);
}

TEST_CASE("a conformer block's config counts its parameters", "[model]") {
    Generator gen(1);
    for (std::int64_t k : {3, 7}) {
        models::ConformerBlock block(small(), k, gen);
        CHECK(static_cast<double>(block.parameter_count()) == models::conformer_block_parameter_count(small(), k));
    }
}

TEST_CASE("with attention silenced, a conformer block reaches one neighbour each side through its convolution",
          "[model]") {
    // Attention would carry a change of x_0 to every position; with its output zeroed, only the
    // convolution module (k = 3, same) carries it, to x_1 and no further (the FFNs and norms are
    // position-wise).
    Generator gen(2);
    models::ConformerBlock block(small(), 3, gen);
    NoGradGuard no_grad;
    for (Tensor* t : {&block.self_attn->w_o->weight, &block.self_attn->w_o->bias}) t->fill_(0);
    Tensor x = uniform({1, 5, 8}, -1, 1, gen);
    Tensor moved = x.clone();
    moved.data<float>()[0] += 1;  // x_0, channel 0
    const auto a = block(x).to_vector(), b = block(moved).to_vector();
    auto changed = [&](std::int64_t t) {
        double most = 0;
        for (std::int64_t c = 0; c < 8; ++c) most = std::max(most, std::abs(a[t * 8 + c] - b[t * 8 + c]));
        return most;
    };
    CHECK(changed(1) > 1e-4);  // the neighbour, through the depthwise taps
    CHECK(changed(2) == 0);    // two positions away: out of a kernel of 3's reach
    CHECK(changed(4) == 0);
}
