#include "lectern/models/decoder_layer.h"

namespace models {

DecoderLayer::DecoderLayer(const nn::BlockConfig& c, autograd::Generator& gen) {
    self_attn =
        register_module("self_attn", std::make_shared<nn::MultiHeadAttention>(c.d_model, c.heads, c.dropout, gen));
    src_attn =
        register_module("src_attn", std::make_shared<nn::MultiHeadAttention>(c.d_model, c.heads, c.dropout, gen));
    self_attn->scaled = src_attn->scaled = c.scaled_attention;
    if (c.compatibility == nn::Compatibility::additive)
        self_attn->use_additive_scores(gen), src_attn->use_additive_scores(gen);
    feed_forward = register_module("feed_forward",
                                   std::make_shared<nn::FeedForward>(c.d_model, c.d_ff, c.dropout, c.activation, gen));
    sublayer = register_module("sublayer", std::make_shared<nn::ModuleList<nn::SublayerConnection>>());
    for (int i = 0; i < 3; ++i)
        sublayer->push_back(
            std::make_shared<nn::SublayerConnection>(c.d_model, c.dropout, c.norm, c.layer_norm, c.layer_norm_eps));
}

// pre-norm (the default), with m = memory, the encoder's output:
//   h_1 = x   + MaskedMHSA(LN(x))              queries, keys, values from the decoder (causal)
//   h_2 = h_1 + MHA(LN(h_1), m, m)             queries from the decoder, keys and values from m
//   out = h_2 + FFN(LN(h_2))
// post-norm moves each LN outside the sum: h_1 = LN(x + MaskedMHSA(x)), ...
Tensor DecoderLayer::forward(const Tensor& x, const Tensor& memory, const Tensor& src_mask,
                             const Tensor& tgt_mask) const {
    const nn::SublayerConnection &around_self = (*sublayer)[0], &around_cross = (*sublayer)[1],
                                 &around_ffn = (*sublayer)[2];
    Tensor h = around_self(x, [&](const Tensor& y) { return self_attn->self_attention(y, tgt_mask); });
    h = around_cross(h, [&](const Tensor& y) { return (*src_attn)(y, memory, memory, src_mask); });
    return around_ffn(h, [&](const Tensor& y) { return (*feed_forward)(y); });
}

// The same equations for the newest position: its query attends to every
// cached key, so no causal mask is needed.
Tensor DecoderLayer::forward_cached(const Tensor& x_new, const Tensor& memory, const Tensor& src_mask,
                                    DecoderLayerCache& cache) const {
    const nn::SublayerConnection &around_self = (*sublayer)[0], &around_cross = (*sublayer)[1],
                                 &around_ffn = (*sublayer)[2];
    Tensor h = around_self(x_new, [&](const Tensor& y) { return self_attn->forward_cached(y, cache.self_attn); });
    h = around_cross(h, [&](const Tensor& y) {
        return src_attn->forward_memory_cached(y, memory, cache.src_attn, src_mask);
    });
    return around_ffn(h, [&](const Tensor& y) { return (*feed_forward)(y); });
}

}  // namespace models
