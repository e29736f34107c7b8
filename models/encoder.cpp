#include "models/encoder.h"

namespace models {

Encoder::Encoder(std::int64_t n_layers, std::int64_t d_model, std::int64_t heads, std::int64_t d_ff, double dropout,
                 nn::Norm placement, nn::Activation activation, autograd::Generator& gen) {
    layers = register_module("layers", std::make_shared<nn::ModuleList<EncoderLayer>>());
    for (std::int64_t i = 0; i < n_layers; ++i)
        layers->push_back(std::make_shared<EncoderLayer>(d_model, heads, d_ff, dropout, placement, activation, gen));
    if (placement == nn::Norm::pre) norm = register_module("norm", std::make_shared<nn::LayerNorm>(d_model));
}

Tensor Encoder::forward(const Tensor& x, const Tensor& mask) const {
    Tensor h = x;
    for (const auto& layer : *layers) h = layer->forward(h, mask);
    return norm ? norm->forward(h) : h;
}

}  // namespace models
