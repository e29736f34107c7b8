// The decoder-only model: causality, block locality, the cache, tying, errors.
// Its gradient checks (plain, block-local, mixture of experts) are in the catalog.
#include <algorithm>

#include "check.h"
#include "lectern/models/gpt.h"

using namespace autograd;

namespace {

struct Variant {
    const char* name;
    std::int64_t block, experts;
    models::Positions positions;
    bool tie;
};

const Variant kVariants[] = {
    {"full attention, learned positions, tied", 0, 0, models::Positions::learned, true},
    {"full attention, sinusoidal positions, untied", 0, 0, models::Positions::sinusoidal, false},
    {"block-local attention (L 2)", 2, 0, models::Positions::learned, true},
    {"mixture of 3 experts, top 2", 0, 3, models::Positions::learned, true},
    {"block-local attention and mixture of experts", 2, 3, models::Positions::sinusoidal, true},
    {"no positions", 0, 0, models::Positions::none, true},
    {"004's binary positions", 0, 0, models::Positions::binary, true},
    {"the sinusoid concatenated, untied", 0, 0, models::Positions::concatenated, false},
};

models::GPTConfig tiny(const Variant& v, std::int64_t layers = 1) {
    models::GPTConfig c;
    c.vocab = 7, c.context = 8, c.d_model = 8, c.n_layers = layers, c.heads = 2, c.d_ff = 12;
    c.block = v.block, c.experts = v.experts, c.top_k = 2, c.positions = v.positions, c.tie_weights = v.tie;
    c.seed = 4;
    return c;
}

Tensor ids(const std::vector<double>& v, const Shape& s) { return tensor(v, s, Dtype::int64); }

}  // namespace

TEST_CASE("GPT is causal: changing token j changes no logit before j", "[model]") {
    for (const Variant& v : kVariants) {
        auto model = models::make_gpt(tiny(v, 2));
        model->to(Dtype::float64);
        Tensor x = ids({1, 2, 3, 4, 5, 6, 0}, {1, 7});
        Tensor before = model->forward(x);
        for (std::int64_t j = 1; j < 7; ++j) {
            Tensor changed = x.clone();
            changed.set({0, j}, x.at({0, j}) == 6 ? 5 : 6);
            Tensor after = model->forward(changed);
            INFO(v.name << ", changed position " << j);
            require_values(narrow(after, 1, 0, j), narrow(before, 1, 0, j).to_vector(), 1e-12);
            CHECK(std::abs(after.at({0, j, 0}) - before.at({0, j, 0})) > 1e-9);  // and token j's own do change
        }
    }
}

TEST_CASE("block-local GPT: a token changes no logit outside its own block of L", "[model]") {
    auto model = models::make_gpt(tiny(kVariants[2], 2));  // L = 2: blocks {0,1}, {2,3}, {4,5}, {6}
    model->to(Dtype::float64);
    Tensor x = ids({1, 2, 3, 4, 5, 6, 0}, {1, 7});
    Tensor before = model->forward(x);
    Tensor changed = x.clone();
    changed.set({0, 2}, 0);
    Tensor after = model->forward(changed);
    require_values(narrow(after, 1, 4, 3), narrow(before, 1, 4, 3).to_vector(), 1e-12);  // later blocks unchanged
    CHECK(std::abs(after.at({0, 3, 0}) - before.at({0, 3, 0})) > 1e-9);  // its block's next token changes
}

TEST_CASE("GPT with caches fed a prefix in pieces gives the logits of the whole prefix", "[model]") {
    for (const Variant& v : kVariants) {
        auto model = models::make_gpt(tiny(v, 2));
        model->to(Dtype::float64);
        Tensor x = ids({1, 2, 3, 4, 5, 6, 0, 3, 2, 1, 4, 4, 1, 5}, {2, 7});
        Tensor whole = model->forward(x);
        std::vector<nn::KVCache> caches(2);
        std::vector<Tensor> pieces;
        for (auto [start, len] : {std::pair{0, 3}, {3, 1}, {4, 3}})
            pieces.push_back(model->forward_cached(narrow(x, 1, start, len), caches));
        INFO(v.name);
        require_values(concat(pieces, 1), whole.to_vector(), 1e-10);
    }
}

TEST_CASE("GPT decoding in float32 without gradients gives the bits of the concatenated cache", "[model]") {
    for (const Variant& v : kVariants) {
        auto model = models::make_gpt(tiny(v, 2));
        Tensor x = ids({1, 2, 3, 4, 5, 6, 0, 3, 2, 1, 4, 4, 1, 5}, {2, 7});
        std::vector<nn::KVCache> kept(2), concatenated(2);
        for (auto [start, len] : {std::pair{0, 3}, {3, 1}, {4, 3}}) {
            const Tensor by_grad = model->forward_cached(narrow(x, 1, start, len), concatenated);
            NoGradGuard no_grad;
            INFO(v.name << ", positions " << start << " + " << len);
            require_values(model->forward_cached(narrow(x, 1, start, len), kept), by_grad.to_vector(), 0);
        }
        CHECK(kept[1].by_head());
    }
}

TEST_CASE("tied weights: the output projection is the token embedding, one tensor", "[model]") {
    auto tied = models::make_gpt(tiny(kVariants[0]));
    auto untied = models::make_gpt(tiny(kVariants[1]));
    CHECK(tied->head->weight.raw_data() == tied->tok_embed->weight.raw_data());
    // untied: its own W_out [7, 8]; sinusoidal: no learned P [8, 8]
    CHECK(untied->parameter_count() - tied->parameter_count() == 7 * 8 - 8 * 8);
    std::vector<std::string> names;
    for (const auto& [name, p] : tied->named_parameters()) names.push_back(name);
    CHECK(std::find(names.begin(), names.end(), "head.weight") == names.end());  // listed once, as tok_embed.weight
    CHECK(std::find(names.begin(), names.end(), "blocks.0.attn.w_q.weight") != names.end());
    auto moe = models::make_gpt(tiny(kVariants[3]));
    names.clear();
    for (const auto& [name, p] : moe->named_parameters()) names.push_back(name);
    CHECK(std::find(names.begin(), names.end(), "blocks.0.moe.experts.2.w_1.weight") != names.end());
}

TEST_CASE("GPT's initialisation: N(0, 0.02), the residual projections smaller, biases zero", "[model]") {
    models::GPTConfig c = tiny(kVariants[0], 2);
    c.d_model = 64, c.d_ff = 256, c.vocab = 100, c.heads = 4;
    auto model = models::make_gpt(c);
    auto std_of = [](const Tensor& t) {
        double s = 0;
        for (double v : t.to_vector()) s += v * v;
        return std::sqrt(s / static_cast<double>(t.numel()));
    };
    CHECK(std_of(model->tok_embed->weight) == Approx(0.02).epsilon(0.05));
    CHECK(std_of((*model->blocks)[0].attn->w_o->weight) == Approx(0.01).epsilon(0.05));  // 0.02 / sqrt(2 N), N = 2
    CHECK(std_of((*model->blocks)[1].mlp->w_1->bias) == 0);
}

TEST_CASE("GPTConfig's layer_norm_eps reaches every LayerNorm of the GPT, 1e-5 by default", "[model]") {
    models::GPTConfig c;
    c.vocab = 11;
    c.d_model = 16;
    c.n_layers = 2;
    c.heads = 2;
    c.d_ff = 32;
    const models::GPT plain(c);
    c.layer_norm_eps = 1e-3;
    const models::GPT wide(c);
    CHECK(plain.norm->eps == 1e-5);
    CHECK(wide.norm->eps == 1e-3);
    for (std::size_t l = 0; l < 2; ++l)
        for (std::size_t s = 0; s < 2; ++s) {
            INFO("block " << l << ", sublayer " << s);
            CHECK((*(*plain.blocks)[l].sublayer)[s].norm->eps == 1e-5);
            CHECK((*(*wide.blocks)[l].sublayer)[s].norm->eps == 1e-3);
        }
}

TEST_CASE("GPT rejects bad token ids, shapes and configurations", "[errors]") {
    auto model = models::make_gpt(tiny(kVariants[0]));
    CHECK_THROWS_AS(model->forward(ids({1, 2, 9}, {1, 3})), IndexError);
    CHECK_THROWS_AS(model->forward(zeros({1, 9}, Dtype::int64)), ShapeError);  // longer than the context
    CHECK_THROWS_AS(model->forward(zeros({3}, Dtype::int64)), ShapeError);
    CHECK_THROWS_AS(model->forward(zeros({1, 3})), DtypeError);
    std::vector<nn::KVCache> one_cache(1), three(3);
    CHECK_THROWS_AS(model->forward_cached(zeros({1, 3}, Dtype::int64), three), ValueError);
    model->forward_cached(zeros({1, 6}, Dtype::int64), one_cache);
    CHECK_THROWS_AS(model->forward_cached(zeros({1, 3}, Dtype::int64), one_cache), ShapeError);  // 6 + 3 > 8
    models::GPTConfig c = tiny(kVariants[0]);
    c.vocab = 0;
    CHECK_THROWS_AS(models::make_gpt(c), ValueError);
    c = tiny(kVariants[3]);
    c.top_k = 4;
    CHECK_THROWS_AS(models::make_gpt(c), ValueError);
    c = tiny(kVariants[0]);
    c.heads = 3;
    CHECK_THROWS_AS(models::make_gpt(c), ValueError);
}
TEST_CASE("make_gpt draws every random parameter itself: building it skips the modules' own draws", "[model]") {
    models::GPTConfig c;
    c.vocab = 11, c.context = 8, c.d_model = 8, c.n_layers = 1, c.heads = 2, c.d_ff = 16;
    auto a = models::make_gpt(c), b = models::make_gpt(c);
    const auto pa = a->named_parameters(), pb = b->named_parameters();
    REQUIRE(pa.size() == pb.size());
    for (std::size_t i = 0; i < pa.size(); ++i) {
        const auto& [name, p] = pa[i];
        INFO(name);
        CHECK(p.to_vector() == pb[i].second.to_vector());
        if (name.find("norm") == std::string::npos && name.find(".bias") == std::string::npos && p.dim() == 2)
            CHECK(p.at({0, 0}) != 0);  // drawn, not left at the skipped zeros
    }
}
