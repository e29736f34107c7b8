// Greedy decoding: the cached loop equals full recomputation.
#include "check.h"
#include "models/greedy_decode.h"
#include "nn/attention_mask.h"

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
}
