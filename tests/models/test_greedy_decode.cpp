// Greedy decoding: the cached loop equals full recomputation.
#include "check.h"
#include "lectern/models/greedy_decode.h"
#include "lectern/nn/attention_mask.h"

using namespace autograd;

TEST_CASE("cached decoding gives exactly the tokens and log-probabilities of recomputation", "[model]") {
    for (nn::Norm norm : {nn::Norm::pre, nn::Norm::post}) {
        models::TransformerConfig c;
        c.src_vocab = c.tgt_vocab = 9;
        c.n_layers = 2, c.d_model = 16, c.d_ff = 32, c.heads = 4, c.dropout = 0.1, c.norm = norm, c.seed = 5;
        auto model = models::make_transformer(c);
        model->to(Dtype::float64);
        Generator g(2);
        Tensor src = Tensor::empty({3, 6}, Dtype::int64);
        for (std::int64_t i = 0; i < src.numel(); ++i) src.data<std::int64_t>()[i] = 1 + g.randint(8);
        src.set({2, 5}, 0);  // padding in one source
        Tensor mask = nn::padding_mask(src, 0);
        models::Decoded cached = models::greedy_decode(*model, src, mask, 8, 1);
        models::Decoded full = models::greedy_decode_recompute(*model, src, mask, 8, 1);
        CHECK(cached.tokens.to_vector() == full.tokens.to_vector());
        require_values(cached.log_probs, full.log_probs.to_vector(), 1e-12);
        CHECK(cached.tokens.shape() == Shape{3, 8});
        CHECK(model->is_training());  // decoding restores the mode it found
    }
}

TEST_CASE("greedy decoding rejects bad arguments", "[errors]") {
    models::TransformerConfig c;
    c.src_vocab = c.tgt_vocab = 5;
    c.n_layers = 1, c.d_model = 8, c.d_ff = 8, c.heads = 2;
    auto model = models::make_transformer(c);
    Tensor src = tensor({1, 2, 3}, {1, 3}, Dtype::int64);
    CHECK_THROWS_AS(models::greedy_decode(*model, src, nn::padding_mask(src, 0), 0, 1), ValueError);
    CHECK_THROWS_AS(models::greedy_decode(*model, src, nn::padding_mask(src, 0), 4, 5), IndexError);
    CHECK_THROWS_AS(models::greedy_decode(*model, tensor({1, 2, 3}, Dtype::int64), Tensor(), 4, 1), ShapeError);
    CHECK_THROWS_AS(models::greedy_decode(*model, src, nn::padding_mask(src, 0), 4, 1, 5), IndexError);
}

TEST_CASE("greedy decoding stops a sequence at the end symbol, and stops when every sequence has (003)", "[model]") {
    models::TransformerConfig c;
    c.src_vocab = c.tgt_vocab = 9;
    c.n_layers = 1, c.d_model = 16, c.d_ff = 32, c.heads = 4, c.dropout = 0.0, c.seed = 7;
    auto model = models::make_transformer(c);
    model->to(Dtype::float64);
    Tensor src = tensor({1, 3, 5, 7, 2, 1, 4, 4, 6, 8}, {2, 5}, Dtype::int64);
    Tensor mask = nn::padding_mask(src, 0);
    models::Decoded free_run = models::greedy_decode(*model, src, mask, 8, 1);
    // Take as end symbol what sequence 0 chooses at position 3: it must end there.
    const auto end = static_cast<std::int64_t>(free_run.tokens.at({0, 3}));
    std::int64_t first_end_0 = 1;
    while (free_run.tokens.at({0, first_end_0}) != static_cast<double>(end)) ++first_end_0;
    std::int64_t first_end_1 = 1;
    while (first_end_1 < 8 && free_run.tokens.at({1, first_end_1}) != static_cast<double>(end)) ++first_end_1;
    for (bool cached : {true, false}) {
        models::Decoded d = cached ? models::greedy_decode(*model, src, mask, 8, 1, end)
                                   : models::greedy_decode_recompute(*model, src, mask, 8, 1, end);
        INFO((cached ? "cached" : "recomputing") << ", end symbol " << end);
        CHECK(d.lengths[0] == first_end_0 + 1);
        CHECK(d.lengths[1] == std::min<std::int64_t>(first_end_1 + 1, 8));
        const std::int64_t L = std::max(d.lengths[0], d.lengths[1]);
        REQUIRE(d.tokens.shape() == Shape{2, L});
        REQUIRE(d.log_probs.shape() == Shape{2, L - 1});
        for (std::int64_t b = 0; b < 2; ++b)
            for (std::int64_t t = 0; t < L; ++t) {
                // Up to its end a sequence is the free run; after it, the end symbol with log-probability 0.
                if (t < d.lengths[static_cast<std::size_t>(b)]) {
                    CHECK(d.tokens.at({b, t}) == free_run.tokens.at({b, t}));
                } else {
                    CHECK(d.tokens.at({b, t}) == static_cast<double>(end));
                    CHECK(d.log_probs.at({b, t - 1}) == 0.0);
                }
            }
    }
    // Sequence 0 alone: decoding stops at its end, before max_len.
    Tensor src0 = narrow(src, 0, 0, 1);
    models::Decoded alone = models::greedy_decode(*model, src0, nn::padding_mask(src0, 0), 8, 1, end);
    CHECK(alone.tokens.shape() == Shape{1, first_end_0 + 1});
    CHECK(first_end_0 + 1 < 8);
}
