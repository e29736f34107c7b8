// Beam search (models/beam_search.h): width 1 is greedy decoding, and a beam
// wide enough to keep every prefix finds the most probable sequence, as an
// exhaustive search over all sequences does.
#include <cmath>
#include <functional>

#include "check.h"
#include "lectern/models/beam_search.h"
#include "lectern/models/greedy_decode.h"
#include "lectern/nn/attention_mask.h"

using namespace autograd;

namespace {

std::shared_ptr<models::Transformer> small_model(std::int64_t vocab, std::uint64_t seed) {
    models::TransformerConfig c;
    c.src_vocab = c.tgt_vocab = vocab;
    c.n_layers = 2, c.d_model = 16, c.d_ff = 32, c.heads = 4, c.dropout = 0.1, c.seed = seed;
    auto model = models::make_transformer(c);
    model->to(Dtype::float64);
    return model;
}

}  // namespace

TEST_CASE("beam search of width 1 is greedy decoding, token for token", "[model]") {
    for (std::uint64_t seed : {3, 4, 5, 6}) {
        auto model = small_model(9, seed);
        Generator g(seed);
        for (std::int64_t end : {2, 5, 7}) {
            Tensor src = Tensor::empty({1, 5}, Dtype::int64);
            for (std::int64_t i = 0; i < 5; ++i) src.data<std::int64_t>()[i] = 1 + g.randint(8);
            Tensor mask = nn::padding_mask(src, 0);
            models::Decoded greedy = models::greedy_decode(*model, src, mask, 10, 1, end);
            models::BeamHypothesis beam = models::beam_search(*model, src, mask, 10, 1, end, 1);
            std::vector<std::int64_t> tokens;
            for (std::int64_t t = 0; t < greedy.lengths[0]; ++t)
                tokens.push_back(static_cast<std::int64_t>(greedy.tokens.at({0, t})));
            INFO("seed " << seed << ", end symbol " << end);
            CHECK(beam.tokens == tokens);
            double sum = 0;
            for (std::int64_t t = 0; t + 1 < greedy.lengths[0]; ++t) sum += greedy.log_probs.at({0, t});
            CHECK(beam.log_prob == Approx(sum).margin(1e-12));
        }
        CHECK(model->is_training());  // the search restores the mode it found
    }
}

TEST_CASE("a beam wide enough to keep every prefix finds the most probable sequence", "[model]") {
    // V = 5, start 1, end 2, at most 3 tokens after the start: 5 + 4*5 + 4*4*5 sequences
    // at most. Each is scored by full recomputation (the decoder on the whole
    // prefix, no cache); the search must return the best of them.
    const std::int64_t V = 5, start = 1, end = 2, max_len = 4;
    for (std::uint64_t seed : {11, 12}) {
        auto model = small_model(V, seed);
        nn::EvalGuard eval(*model);
        NoGradGuard no_grad;
        Tensor src = tensor({3, 4, 2, 3}, {1, 4}, Dtype::int64);
        Tensor mask = nn::padding_mask(src, 0);
        Tensor memory = model->encode(src, mask);
        double best = -1e300;
        std::vector<std::int64_t> best_tokens;
        std::function<void(std::vector<std::int64_t>, double)> walk = [&](std::vector<std::int64_t> prefix, double lp) {
            const bool ended = prefix.size() > 1 && prefix.back() == end;
            if (ended || static_cast<std::int64_t>(prefix.size()) == max_len) {
                if (lp > best) best = lp, best_tokens = prefix;
                return;
            }
            const auto t = static_cast<std::int64_t>(prefix.size());
            Tensor tgt = Tensor::empty({1, t}, Dtype::int64);
            std::copy(prefix.begin(), prefix.end(), tgt.data<std::int64_t>());
            Tensor out = model->decode(memory, mask, tgt, nn::subsequent_mask(t));
            Tensor log_probs = model->generator->forward(select(out, 1, t - 1));  // [1, V]
            for (std::int64_t v = 0; v < V; ++v) {
                std::vector<std::int64_t> next = prefix;
                next.push_back(v);
                walk(next, lp + log_probs.at({0, v}));
            }
        };
        walk({start}, 0);
        models::BeamHypothesis beam = models::beam_search(*model, src, mask, max_len, start, end, 1000);
        INFO("seed " << seed);
        CHECK(beam.tokens == best_tokens);
        CHECK(beam.log_prob == Approx(best).margin(1e-10));
        // Width 2 cannot do better than the exhaustive search.
        CHECK(models::beam_search(*model, src, mask, max_len, start, end, 2).log_prob <= best + 1e-12);
    }
}

TEST_CASE("the length penalty ranks finished hypotheses by log p / ((5 + n) / 6)^alpha", "[model]") {
    auto model = small_model(9, 21);
    Tensor src = tensor({3, 4, 5}, {1, 3}, Dtype::int64);
    Tensor mask = nn::padding_mask(src, 0);
    models::BeamHypothesis h = models::beam_search(*model, src, mask, 8, 1, 2, 3, 0.6);
    const auto n = static_cast<double>(h.tokens.size() - 1);
    CHECK(h.score == Approx(h.log_prob / std::pow((5 + n) / 6, 0.6)));
}

TEST_CASE("beam search rejects bad arguments", "[errors]") {
    auto model = small_model(5, 1);
    Tensor src = tensor({1, 2, 3}, {1, 3}, Dtype::int64);
    Tensor mask = nn::padding_mask(src, 0);
    CHECK_THROWS_AS(models::beam_search(*model, src, mask, 4, 1, 2, 0), ValueError);
    CHECK_THROWS_AS(models::beam_search(*model, src, mask, 0, 1, 2, 2), ValueError);
    CHECK_THROWS_AS(models::beam_search(*model, src, mask, 4, 1, 5, 2), IndexError);
    Tensor two = tensor({1, 2, 3, 1, 2, 3}, {2, 3}, Dtype::int64);
    CHECK_THROWS_AS(models::beam_search(*model, two, nn::padding_mask(two, 0), 4, 1, 2, 2), ShapeError);
}
