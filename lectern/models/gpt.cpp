#include "lectern/models/gpt.h"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "lectern/nn/attention_mask.h"
#include "lectern/nn/init.h"
#include "lectern/nn/make_positional_encoding.h"

namespace models {

using namespace autograd;

GPT::GPT(const GPTConfig& c) : config(c) {
    if (c.vocab <= 0 || c.context <= 0 || c.n_layers <= 0 || c.block < 0 || c.experts < 0)
        throw ValueError(
            fmt::format("GPT: needs vocab, context, n_layers > 0 and block, experts >= 0; got vocab {}, "
                        "context {}, n_layers {}, block {}, experts {}",
                        c.vocab, c.context, c.n_layers, c.block, c.experts));
    if (c.tie_weights && c.positions == Positions::concatenated)
        throw ValueError(
            "GPT: tied weights need the token embedding d_model wide, and concatenated positions make it "
            "narrower");
    Generator gen(c.seed);
    // The positions fix the token embedding's width; W_pos is drawn after E_tok, from the same stream.
    const std::int64_t width = nn::embedding_width(c.positions, c.d_model, c.position_width);
    tok_embed = register_module("tok_embed", std::make_shared<nn::Embedding>(c.vocab, width, false, gen));
    pos = register_module("pos",
                          nn::make_positional_encoding(c.positions, c.d_model, c.context, 0.0, c.position_width, gen));
    learned_pos = std::dynamic_pointer_cast<nn::LearnedPositionalEmbedding>(pos);
    drop = register_module("drop", std::make_shared<nn::Dropout>(c.dropout));
    blocks = register_module("blocks", std::make_shared<nn::ModuleList<GPTBlock>>());
    for (std::int64_t l = 0; l < c.n_layers; ++l)
        blocks->push_back(std::make_shared<GPTBlock>(c.block_config(), c.block, c.experts, c.top_k, gen));
    norm = register_module("norm", std::make_shared<nn::LayerNorm>(c.d_model, c.layer_norm_eps));
    head = register_module("head", std::make_shared<nn::Linear>(c.d_model, c.vocab, false, gen));
    if (c.tie_weights) head->weight = head->replace_parameter("weight", tok_embed->weight);
}

// dropout(E_tok[ids] + P[start : start + T])
Tensor GPT::embed(const Tensor& ids, std::int64_t start) const {
    check_dtype("GPT", ids, Dtype::int64, "ids");
    if (ids.dim() != 2 || ids.size(1) == 0 || start + ids.size(1) > config.context)
        throw ShapeError(
            fmt::format("GPT: ids {} at position {} must be [B, T] with 0 < T and position + T <= context {}",
                        shape_str(ids.shape()), start, config.context));
    Tensor x = tok_embed->forward(ids);
    x = pos->forward(x, start);
    return drop->forward(x);
}

Tensor GPT::forward(const Tensor& ids) const {
    Tensor h = embed(ids, 0);
    for (const auto& b : *blocks) h = b->forward(h);
    return logits(h);
}

Tensor GPT::forward_cached(const Tensor& ids_new, std::vector<nn::KVCache>& caches) const {
    if (caches.size() != blocks->size())
        throw ValueError(fmt::format("GPT: {} caches for {} layers", caches.size(), blocks->size()));
    const std::int64_t past = caches[0].length(), t = ids_new.dim() == 2 ? ids_new.size(1) : 0;
    Tensor h = embed(ids_new, past);
    // The newest token alone under full attention sees every cached key: no mask needed.
    Tensor mask = t == 1 && config.block == 0 ? Tensor() : nn::causal_mask(t, past, config.block);
    for (std::size_t l = 0; l < blocks->size(); ++l) h = (*blocks)[l].forward_cached(h, caches[l], mask);
    return logits(h);
}

Tensor GPT::aux_loss() const {
    Tensor total = zeros({}, dtype());
    for (const auto& b : *blocks)
        if (Tensor a = b->aux_loss(); a.defined()) total = total + a;
    return total;
}

std::shared_ptr<GPT> make_gpt(const GPTConfig& config) {
    std::shared_ptr<GPT> model;
    {
        nn::init::SkipInitGuard skip;  // every random parameter is drawn below
        model = std::make_shared<GPT>(config);
    }
    Generator gen(config.seed + 1);
    const double residual_std = 0.02 / std::sqrt(2.0 * static_cast<double>(config.n_layers));
    auto ends_with = [](const std::string& s, const std::string& tail) {
        return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
    };
    for (auto& [name, p] : model->named_parameters()) {
        if (ends_with(name, ".bias")) {  // Linear biases (LayerNorm's are gamma and beta)
            nn::init::zeros_(p);
        } else if (p.dim() == 2) {  // Linear weights, the token and position tables
            bool residual_out = ends_with(name, ".w_o.weight") || ends_with(name, ".w_2.weight");
            nn::init::normal_(p, 0, residual_out ? residual_std : 0.02, gen);
        }
    }
    return model;
}

double GPTConfig::parameter_count() const {
    const auto V = static_cast<double>(vocab);
    const auto width = static_cast<double>(nn::embedding_width(positions, d_model, position_width));
    return V * width + nn::positional_parameter_count(positions, d_model, context) +
           static_cast<double>(n_layers) * gpt_block_parameter_count(block_config(), experts) +
           block_config().norm_parameters() + (tie_weights ? 0 : static_cast<double>(d_model) * V);
}

}  // namespace models
