#include "models/decoder_layer.h"

namespace models {

DecoderLayer::DecoderLayer(std::int64_t d_model, std::int64_t heads, std::int64_t d_ff, double dropout, nn::Norm norm,
                           nn::Activation activation, autograd::Generator& gen) {
    self_attn = register_module("self_attn", std::make_shared<nn::MultiHeadAttention>(d_model, heads, dropout, gen));
    src_attn = register_module("src_attn", std::make_shared<nn::MultiHeadAttention>(d_model, heads, dropout, gen));
    feed_forward = register_module("feed_forward", std::make_shared<nn::FeedForward>(d_model, d_ff, dropout, activation, gen));
    sublayer = register_module("sublayer", std::make_shared<nn::ModuleList<nn::SublayerConnection>>());
    for (int i = 0; i < 3; ++i) sublayer->push_back(std::make_shared<nn::SublayerConnection>(d_model, dropout, norm));
}

Tensor DecoderLayer::forward(const Tensor& x, const Tensor& memory, const Tensor& src_mask, const Tensor& tgt_mask) const {
    Tensor h = (*sublayer)[0].forward(x, [&](const Tensor& y) { return self_attn->forward(y, y, y, tgt_mask); });
    h = (*sublayer)[1].forward(h, [&](const Tensor& y) { return src_attn->forward(y, memory, memory, src_mask); });
    return (*sublayer)[2].forward(h, [&](const Tensor& y) { return feed_forward->forward(y); });
}

Tensor DecoderLayer::forward_cached(const Tensor& x_new, const Tensor& memory, const Tensor& src_mask,
                                    DecoderLayerCache& cache) const {
    // One new query attends to every cached position: no causal mask is needed.
    Tensor h = (*sublayer)[0].forward(x_new, [&](const Tensor& y) { return self_attn->forward_cached(y, cache.self_attn); });
    h = (*sublayer)[1].forward(
        h, [&](const Tensor& y) { return src_attn->forward_memory_cached(y, memory, cache.src_attn, src_mask); });
    return (*sublayer)[2].forward(h, [&](const Tensor& y) { return feed_forward->forward(y); });
}

}  // namespace models
