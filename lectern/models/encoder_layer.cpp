#include "lectern/models/encoder_layer.h"

#include <fmt/format.h>

namespace models {

EncoderLayer::EncoderLayer(const nn::BlockConfig& c, autograd::Generator& gen) : pattern(c.encoder_attention) {
    using Kind = nn::AttentionPattern::Kind;
    if (pattern.kind != Kind::full && pattern.size <= 0)
        throw autograd::ValueError(
            fmt::format("EncoderLayer: a local attention pattern needs a positive size, got {}", pattern.size));
    if (pattern.kind == Kind::hybrid && c.heads < 2)
        throw autograd::ValueError(
            fmt::format("EncoderLayer: the hybrid pattern splits the heads in two, so needs at "
                        "least 2, got {}",
                        c.heads));
    self_attn =
        register_module("self_attn", std::make_shared<nn::MultiHeadAttention>(c.d_model, c.heads, c.dropout, gen));
    self_attn->scaled = c.scaled_attention;
    if (c.compatibility == nn::Compatibility::additive) self_attn->use_additive_scores(gen);
    feed_forward = register_module("feed_forward",
                                   std::make_shared<nn::FeedForward>(c.d_model, c.d_ff, c.dropout, c.activation, gen));
    sublayer = register_module("sublayer", std::make_shared<nn::ModuleList<nn::SublayerConnection>>());
    for (int i = 0; i < 2; ++i)
        sublayer->push_back(
            std::make_shared<nn::SublayerConnection>(c.d_model, c.dropout, c.norm, c.layer_norm, c.layer_norm_eps));
}

// pre-norm (the default; 003, 002's ViT):   post-norm (the paper; 000/004's pseudocode):
//   h   = x + MHSA(LN(x))                     h   = LN(x + MHSA(x))
//   out = h + FFN(LN(h))                      out = LN(h + FFN(h))
// with dropout on each sublayer's output (nn::SublayerConnection). MHSA reads every key, or
// only a local pattern's (004 §15.6.1); in both directions unless the pattern is causal.
Tensor EncoderLayer::forward(const Tensor& x, const Tensor& mask) const {
    const nn::SublayerConnection &around_attention = (*sublayer)[0], &around_ffn = (*sublayer)[1];
    Tensor h = around_attention(x, [&](const Tensor& y) { return self_attn->self_attention(y, mask, pattern); });
    return around_ffn(h, [&](const Tensor& y) { return (*feed_forward)(y); });
}

double encoder_layer_parameter_count(const nn::BlockConfig& c) {
    return c.attention_parameters() + c.feed_forward_parameters() + 2 * c.norm_parameters();
}

}  // namespace models
