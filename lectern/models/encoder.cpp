#include "lectern/models/encoder.h"

namespace models {

Encoder::Encoder(std::int64_t n_layers, const nn::BlockConfig& c, autograd::Generator& gen) {
    layers = register_module("layers", std::make_shared<nn::ModuleList<EncoderLayer>>());
    for (std::int64_t i = 0; i < n_layers; ++i) layers->push_back(std::make_shared<EncoderLayer>(c, gen));
    if (c.norm == nn::Norm::pre)
        norm = register_module("norm", std::make_shared<nn::LayerNorm>(c.d_model, c.layer_norm, c.layer_norm_eps));
}

Tensor Encoder::forward(const Tensor& x, const Tensor& mask) const {
    Tensor h = x;
    for (const auto& layer : *layers) h = layer->forward(h, mask);
    return norm ? norm->forward(h) : h;
}

double encoder_parameter_count(std::int64_t n_layers, const nn::BlockConfig& c) {
    return static_cast<double>(n_layers) * encoder_layer_parameter_count(c) +
           (c.norm == nn::Norm::pre ? c.norm_parameters() : 0);
}

}  // namespace models
