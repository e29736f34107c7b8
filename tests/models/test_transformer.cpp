// The whole Transformer: decoder causality, parameters, errors. Its gradient
// checks (pre-norm, post-norm, 001's LayerNorm) are in the catalog.
#include "check.h"
#include "lectern/models/encoder_layer.h"
#include "lectern/models/transformer.h"
#include "lectern/nn/attention_mask.h"

using namespace autograd;

namespace {

models::TransformerConfig tiny(nn::Norm norm) {
    models::TransformerConfig c;
    c.src_vocab = c.tgt_vocab = 7;
    c.n_layers = 1, c.d_model = 8, c.d_ff = 16, c.heads = 2, c.dropout = 0.0, c.norm = norm;
    c.seed = 3;
    return c;
}

Tensor ids(const std::vector<double>& v, const Shape& s) { return tensor(v, s, Dtype::int64); }

}  // namespace

TEST_CASE("the decoder is causal: changing target token j changes no output before j", "[model]") {
    auto model = models::make_transformer(tiny(nn::Norm::pre));
    model->to(Dtype::float64);
    Tensor src = ids({1, 2, 3, 4, 5}, {1, 5});
    Tensor tgt = ids({1, 2, 3, 4, 5, 6}, {1, 6});
    Tensor src_mask = nn::padding_mask(src, 0);
    Tensor before = model->forward(src, tgt, src_mask, models::target_mask(tgt, 0));
    for (std::int64_t j = 1; j < 6; ++j) {
        Tensor changed = tgt.clone();
        changed.set({0, j}, tgt.at({0, j}) == 6 ? 5 : 6);  // a different token
        Tensor after = model->forward(src, changed, src_mask, models::target_mask(changed, 0));
        INFO("changed target position " << j);
        require_values(narrow(after, 1, 0, j), narrow(before, 1, 0, j).to_vector(), 1e-12);
    }
}

TEST_CASE("parameters are named as the notes draw the model", "[model]") {
    auto model = models::make_transformer(tiny(nn::Norm::pre));
    std::vector<std::string> names;
    for (const auto& [name, p] : model->named_parameters()) names.push_back(name);
    auto has = [&](const std::string& n) { return std::find(names.begin(), names.end(), n) != names.end(); };
    CHECK(has("encoder.layers.0.self_attn.w_q.weight"));
    CHECK(has("decoder.layers.0.src_attn.w_k.bias"));
    CHECK(has("decoder.layers.0.sublayer.2.norm.gamma"));
    CHECK(has("encoder.norm.beta"));
    CHECK(has("generator.proj.weight"));
    auto post = models::make_transformer(tiny(nn::Norm::post));
    CHECK(post->parameter_count() == model->parameter_count() - 4 * 8);  // no final norms in post-norm
}

TEST_CASE("shared embeddings tie source, target and generator to one matrix (001 'Embeddings and Softmax')",
          "[model]") {
    auto c = tiny(nn::Norm::pre);
    c.share_embeddings = true;
    auto shared = models::make_transformer(c);
    auto separate = models::make_transformer(tiny(nn::Norm::pre));
    CHECK(shared->parameter_count() == separate->parameter_count() - 2 * 7 * 8);
    CHECK(shared->tgt_embed->weight.impl() == shared->src_embed->weight.impl());
    CHECK(shared->generator->proj->weight.impl() == shared->src_embed->weight.impl());
    c.tgt_vocab = 9;
    CHECK_THROWS_AS(models::make_transformer(c), ValueError);
}

TEST_CASE("without positions the encoder is permutation-equivariant, and every code breaks it (002; 004 §15.5.3)",
          "[model]") {
    Tensor src = ids({1, 2, 3, 4, 5, 6}, {1, 6});
    const std::vector<double> order = {5, 3, 0, 4, 1, 2};  // R: row i of R X is row order[i] of X
    Tensor R = tensor(order, {6}, Dtype::int64);
    for (nn::Positions kind : {nn::Positions::none, nn::Positions::sinusoidal, nn::Positions::learned,
                               nn::Positions::binary, nn::Positions::concatenated}) {
        auto c = tiny(nn::Norm::pre);
        c.positions = kind, c.max_len = 16;
        auto model = models::make_transformer(c);
        model->to(Dtype::float64);
        NoGradGuard no_grad;
        Tensor permuted = index_select(src, 1, R);
        Tensor memory = model->encode(src, Tensor()), of_permuted = model->encode(permuted, Tensor());
        Tensor R_memory = index_select(memory, 1, R);  // R E(X)
        double gap = 0;
        for (std::size_t i = 0; i < of_permuted.to_vector().size(); ++i)
            gap = std::max(gap, std::abs(of_permuted.to_vector()[i] - R_memory.to_vector()[i]));
        INFO(nn::positions_name(kind) << ": largest |E(RX) - R E(X)| = " << gap);
        if (kind == nn::Positions::none) CHECK(gap < 1e-12);  // E(RX) = R E(X): the encoder cannot tell the order
        else CHECK(gap > 1e-3);
    }
}

TEST_CASE("cached decoding adds each code at the token's own position: decode_step equals decode", "[model]") {
    for (nn::Positions kind :
         {nn::Positions::none, nn::Positions::learned, nn::Positions::binary, nn::Positions::concatenated}) {
        auto c = tiny(nn::Norm::pre);
        c.positions = kind, c.max_len = 16;
        auto model = models::make_transformer(c);
        model->to(Dtype::float64);
        NoGradGuard no_grad;
        Tensor src = ids({1, 2, 3, 4}, {1, 4}), tgt = ids({1, 5, 6, 2, 3}, {1, 5});
        Tensor memory = model->encode(src, Tensor());
        Tensor whole = model->decode(memory, Tensor(), tgt, models::target_mask(tgt, 0));
        models::DecoderCache cache = model->new_cache();
        std::vector<Tensor> steps;
        for (std::int64_t t = 0; t < 5; ++t)
            steps.push_back(model->decode_step(memory, Tensor(), narrow(tgt, 1, t, 1), t, cache));
        INFO(nn::positions_name(kind));
        require_values(concat(steps, 1), whole.to_vector(), 1e-10);
    }
}

TEST_CASE("concatenated positions make the embeddings K narrower, and cannot share them", "[model]") {
    auto c = tiny(nn::Norm::pre);
    c.positions = nn::Positions::concatenated, c.position_width = 4;
    auto model = models::make_transformer(c);
    CHECK(model->src_embed->weight.shape() == Shape{7, 4});  // d_model 8 - K 4
    CHECK(model->tgt_embed->weight.shape() == Shape{7, 4});
    CHECK(model->parameter_count() == models::make_transformer(tiny(nn::Norm::pre))->parameter_count() - 2 * 7 * 4);
    c.share_embeddings = true;
    CHECK_THROWS_WITH(models::make_transformer(c), Catch::Contains("concatenated positions"));
    c.share_embeddings = false, c.position_width = 3;
    CHECK_THROWS_AS(models::make_transformer(c), ValueError);
}

TEST_CASE("the Transformer rejects bad token ids and shapes", "[errors]") {
    auto model = models::make_transformer(tiny(nn::Norm::pre));
    Tensor src = ids({1, 2, 9}, {1, 3});  // 9 is outside the vocabulary of 7
    CHECK_THROWS_AS(model->encode(src, nn::padding_mask(src, 0)), IndexError);
    Tensor ok = ids({1, 2, 3}, {1, 3});
    CHECK_THROWS_AS(model->encode(ok, nn::subsequent_mask(2)), ShapeError);
    CHECK_THROWS_AS(model->encode(tensor({1, 2}, {1, 2}), Tensor()), DtypeError);
}

TEST_CASE("001's LayerNorm reaches every norm of the Transformer, and changes its output", "[model]") {
    auto c = tiny(nn::Norm::pre);
    c.layer_norm = nn::LayerNormFormula::annotated;
    auto annotated = models::make_transformer(c);
    auto standard = models::make_transformer(tiny(nn::Norm::pre));
    std::vector<const nn::LayerNorm*> norms{annotated->encoder->norm.get(), annotated->decoder->norm.get()};
    for (const auto& layer : *annotated->encoder->layers)
        for (const auto& s : *layer->sublayer) norms.push_back(s->norm.get());
    for (const auto& layer : *annotated->decoder->layers)
        for (const auto& s : *layer->sublayer) norms.push_back(s->norm.get());
    CHECK(norms.size() == 2 + 2 + 3);
    for (const nn::LayerNorm* n : norms) {
        CHECK(n->formula == nn::LayerNormFormula::annotated);
        CHECK(n->eps == 1e-6);
    }
    Tensor src = tensor({1, 3, 4, 2}, {1, 4}, Dtype::int64), tgt = tensor({1, 3, 4}, {1, 3}, Dtype::int64);
    NoGradGuard no_grad;
    auto out = [&](const models::Transformer& m) {
        return m.forward(src, tgt, nn::padding_mask(src, 0), models::target_mask(tgt, 0)).to_vector();
    };
    std::vector<double> a = out(*annotated), s = out(*standard);
    double largest = 0;
    for (std::size_t i = 0; i < a.size(); ++i) largest = std::max(largest, std::abs(a[i] - s[i]));
    CHECK(largest > 1e-3);  // same weights (same seed), another normalisation
}

TEST_CASE("TransformerConfig's scaled_attention = false reaches every attention layer", "[model]") {
    models::TransformerConfig c;
    c.n_layers = 2, c.d_model = 8, c.d_ff = 16, c.heads = 2, c.dropout = 0;
    for (bool scaled : {true, false}) {
        c.scaled_attention = scaled;
        models::Transformer model(c);
        int layers = 0;
        for (const auto& layer : *model.encoder->layers) {
            CHECK(layer->self_attn->scaled == scaled);
            ++layers;
        }
        for (const auto& layer : *model.decoder->layers) {
            CHECK(layer->self_attn->scaled == scaled);
            CHECK(layer->src_attn->scaled == scaled);
            ++layers;
        }
        CHECK(layers == 4);
    }
}

TEST_CASE("an encoder layer with a local pattern equals the full layer under that pattern's mask (004 §15.6.1)",
          "[model]") {
    // Same seed, same weights: the pattern changes only which keys self-attention reads.
    using Kind = nn::AttentionPattern::Kind;
    const std::int64_t S = 7;
    Tensor x = rand64({2, S, 8}, 9).detach();
    Tensor pad = tensor({1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0}, {2, 1, S}, Dtype::int64);
    for (auto [kind, mask] : {std::pair{Kind::block_local, nn::block_local_mask(S, 3, nn::Direction::bidirectional)},
                              {Kind::strided, nn::strided_mask(S, 3, nn::Direction::bidirectional)}}) {
        nn::BlockConfig c{8, 2, 16, 0.0, nn::Norm::pre};
        Generator g1(4), g2(4);
        models::EncoderLayer full(c, g1);
        c.encoder_attention = {kind, 3};
        models::EncoderLayer local(c, g2);
        full.to(Dtype::float64), local.to(Dtype::float64);
        INFO((kind == Kind::strided ? "strided" : "block-local"));
        require_values(local.forward(x, pad), full.forward(x, nn::mask_and(mask, pad)).to_vector(), 1e-12);
    }
    nn::BlockConfig bad{8, 2, 16, 0.0, nn::Norm::pre};
    bad.encoder_attention = {Kind::strided, 0};
    Generator g(1);
    CHECK_THROWS_AS(models::EncoderLayer(bad, g), ValueError);
}
