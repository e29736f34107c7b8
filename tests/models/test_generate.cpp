// Sampling from a GPT: the cached loop equals recomputation token for token,
// top-k = 1 is greedy, the seed reproduces a sample, the end token stops it.
#include <algorithm>

#include "check.h"
#include "lectern/models/generate.h"

using namespace autograd;

namespace {

std::shared_ptr<models::GPT> small_gpt(std::int64_t block, std::int64_t experts, models::Positions pos) {
    models::GPTConfig c;
    c.vocab = 11, c.context = 8, c.d_model = 16, c.n_layers = 2, c.heads = 4, c.d_ff = 32, c.dropout = 0.1;
    c.block = block, c.experts = experts, c.top_k = 2, c.positions = pos, c.seed = 6;
    auto model = models::make_gpt(c);
    // A spread-out next-token distribution, so sampling has choices to make.
    for (auto& p : model->parameters()) {
        NoGradGuard no_grad;
        p.copy_(p * 20.0);
    }
    model->to(Dtype::float64);
    return model;
}

std::vector<std::int64_t> run(const models::GPT& m, models::SamplingOptions o, std::uint64_t seed,
                              std::vector<std::int64_t> prompt = {1, 2, 3}) {
    Generator gen(seed);
    return models::generate(m, prompt, o, gen);
}

}  // namespace

TEST_CASE("the window moves by half a context: s = ceil((n - C) / (C/2)) (C/2)", "[model]") {
    CHECK(models::window_start(8, 8) == 0);
    CHECK(models::window_start(9, 8) == 4);
    CHECK(models::window_start(12, 8) == 4);
    CHECK(models::window_start(13, 8) == 8);
    CHECK(models::window_start(5, 1) == 4);
}

TEST_CASE("cached sampling gives exactly the tokens of recomputation, past the context", "[model]") {
    struct Case {
        const char* name;
        std::int64_t block, experts;
        models::Positions pos;
    };
    for (const Case& c :
         {Case{"full", 0, 0, models::Positions::learned}, Case{"block-local L 3", 3, 0, models::Positions::learned},
          Case{"MoE", 0, 3, models::Positions::sinusoidal}, Case{"MoE, L 4", 4, 3, models::Positions::learned}}) {
        auto model = small_gpt(c.block, c.experts, c.pos);
        for (auto [temperature, top_k] : {std::pair{0.0, std::int64_t{0}}, {1.0, 0}, {0.8, 4}}) {
            models::SamplingOptions o{.max_new_tokens = 30, .temperature = temperature, .top_k = top_k};
            std::vector<std::int64_t> cached = run(*model, o, 7);
            o.use_cache = false;
            std::vector<std::int64_t> recomputed = run(*model, o, 7);
            INFO(c.name << ", temperature " << temperature << ", top-k " << top_k);
            CHECK(cached.size() == 30);
            CHECK(cached == recomputed);
        }
        CHECK(model->is_training());  // sampling restores the mode it found
    }
}

TEST_CASE("the cache's self-check finds the logits of recomputation, to rounding in float32", "[model]") {
    auto model = small_gpt(0, 3, models::Positions::learned);  // float64
    models::SamplingOptions o{.max_new_tokens = 30, .temperature = 1.0};
    std::vector<std::int64_t> tokens = {1, 2, 3};
    const std::vector<std::int64_t> drawn = run(*model, o, 7);
    tokens.insert(tokens.end(), drawn.begin(), drawn.end());  // 33 tokens: the window moves past the context of 8
    CHECK(models::cache_logit_difference(*model, tokens, 3) < 1e-10);
    model->to(Dtype::float32);
    const double in_float32 = models::cache_logit_difference(*model, tokens, 3);
    CHECK(in_float32 < 1e-3);  // logits of about 100 (weights scaled by 20), float32's 7 digits
    CHECK_THROWS_WITH(models::cache_logit_difference(*model, tokens, 0), Catch::Contains("a prompt of 0 of the 33"));
}

TEST_CASE("top-k = 1 equals greedy, at any temperature", "[model]") {
    auto model = small_gpt(0, 0, models::Positions::learned);
    std::vector<std::int64_t> greedy = run(*model, {.max_new_tokens = 20, .temperature = 0}, 1);
    CHECK(run(*model, {.max_new_tokens = 20, .temperature = 1.7, .top_k = 1}, 2) == greedy);
    CHECK(run(*model, {.max_new_tokens = 20, .temperature = 1.0}, 2) != greedy);   // sampling does differ
    CHECK(run(*model, {.max_new_tokens = 20, .temperature = 1e-3}, 2) == greedy);  // a cold softmax is the arg-max
}

TEST_CASE("every token sampled with top-k = 3 is among the 3 most probable", "[model]") {
    auto model = small_gpt(0, 0, models::Positions::learned);
    std::vector<std::int64_t> prompt{4},
        out = run(*model, {.max_new_tokens = 7, .temperature = 2.0, .top_k = 3}, 5, prompt);
    std::vector<std::int64_t> text = prompt;
    model->eval();
    for (std::int64_t tok : out) {
        Tensor in = Tensor::empty({1, static_cast<std::int64_t>(text.size())}, Dtype::int64);
        std::copy(text.begin(), text.end(), in.data<std::int64_t>());
        Tensor l = model->forward(in);
        double mine = l.at({0, in.size(1) - 1, tok});
        int above = 0;
        for (std::int64_t v = 0; v < 11; ++v) above += l.at({0, in.size(1) - 1, v}) > mine;
        CHECK(above < 3);
        text.push_back(tok);
    }
}

TEST_CASE("the same seed gives the same sample; the end token stops it", "[model]") {
    auto model = small_gpt(0, 0, models::Positions::learned);
    models::SamplingOptions o{.max_new_tokens = 25, .temperature = 1.0};
    std::vector<std::int64_t> a = run(*model, o, 3);
    CHECK(run(*model, o, 3) == a);
    CHECK(run(*model, o, 4) != a);
    o.end_token = a[4];
    auto first = std::find(a.begin(), a.end(), a[4]) - a.begin();
    std::vector<std::int64_t> stopped = run(*model, o, 3);
    CHECK(stopped == std::vector<std::int64_t>(a.begin(), a.begin() + first + 1));
}

TEST_CASE("each token is handed over as it is drawn, and a false answer ends the sampling there", "[model]") {
    auto model = small_gpt(0, 0, models::Positions::learned);
    models::SamplingOptions o{.max_new_tokens = 25, .temperature = 1.0};
    const std::vector<std::int64_t> all = run(*model, o, 3);
    std::vector<std::int64_t> seen;
    o.on_token = [&](std::int64_t token) {
        seen.push_back(token);
        return seen.size() < 7;  // a stop signal after the seventh token
    };
    const std::vector<std::int64_t> stopped = run(*model, o, 3);
    CHECK(seen == std::vector<std::int64_t>(all.begin(), all.begin() + 7));
    CHECK(stopped == seen);
}

TEST_CASE("sampling rejects bad prompts and options", "[errors]") {
    auto model = small_gpt(0, 0, models::Positions::learned);
    CHECK_THROWS_AS(run(*model, {}, 1, {}), ValueError);
    CHECK_THROWS_AS(run(*model, {}, 1, {1, 11}), IndexError);
    CHECK_THROWS_AS(run(*model, {.temperature = -1}, 1), ValueError);
    CHECK_THROWS_AS(run(*model, {.top_k = -2}, 1), ValueError);
    CHECK_THROWS_AS(run(*model, {.end_token = 11}, 1), IndexError);
}
