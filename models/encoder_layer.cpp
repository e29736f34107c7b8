#include "models/encoder_layer.h"

namespace models {

EncoderLayer::EncoderLayer(std::int64_t d_model, std::int64_t heads, std::int64_t d_ff, double dropout, nn::Norm norm,
                           nn::Activation activation, autograd::Generator& gen) {
    self_attn = register_module("self_attn", std::make_shared<nn::MultiHeadAttention>(d_model, heads, dropout, gen));
    feed_forward = register_module("feed_forward", std::make_shared<nn::FeedForward>(d_model, d_ff, dropout, activation, gen));
    sublayer = register_module("sublayer", std::make_shared<nn::ModuleList<nn::SublayerConnection>>());
    for (int i = 0; i < 2; ++i) sublayer->push_back(std::make_shared<nn::SublayerConnection>(d_model, dropout, norm));
}

Tensor EncoderLayer::forward(const Tensor& x, const Tensor& mask) const {
    Tensor h = (*sublayer)[0].forward(x, [&](const Tensor& y) { return self_attn->forward(y, y, y, mask); });
    return (*sublayer)[1].forward(h, [&](const Tensor& y) { return feed_forward->forward(y); });
}

}  // namespace models
