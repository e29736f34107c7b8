#include "models/encoder_layer.h"

namespace models {

EncoderLayer::EncoderLayer(const nn::BlockConfig& c, autograd::Generator& gen) {
    self_attn = register_module("self_attn", std::make_shared<nn::MultiHeadAttention>(c.d_model, c.heads, c.dropout, gen));
    feed_forward = register_module(
        "feed_forward", std::make_shared<nn::FeedForward>(c.d_model, c.d_ff, c.dropout, c.activation, gen));
    sublayer = register_module("sublayer", std::make_shared<nn::ModuleList<nn::SublayerConnection>>());
    for (int i = 0; i < 2; ++i)
        sublayer->push_back(std::make_shared<nn::SublayerConnection>(c.d_model, c.dropout, c.norm, c.layer_norm));
}

// pre-norm (the default; 003, 002's ViT):   post-norm (the paper; 000/004's pseudocode):
//   h   = x + MHSA(LN(x))                     h   = LN(x + MHSA(x))
//   out = h + FFN(LN(h))                      out = LN(h + FFN(h))
// with dropout on each sublayer's output (nn::SublayerConnection).
Tensor EncoderLayer::forward(const Tensor& x, const Tensor& mask) const {
    const nn::SublayerConnection &around_attention = (*sublayer)[0], &around_ffn = (*sublayer)[1];
    Tensor h = around_attention(x, [&](const Tensor& y) { return self_attn->self_attention(y, mask); });
    return around_ffn(h, [&](const Tensor& y) { return (*feed_forward)(y); });
}

}  // namespace models
