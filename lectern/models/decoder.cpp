#include "lectern/models/decoder.h"

#include <fmt/format.h>

namespace models {

Decoder::Decoder(std::int64_t n_layers, const nn::BlockConfig& c, autograd::Generator& gen) {
    layers = register_module("layers", std::make_shared<nn::ModuleList<DecoderLayer>>());
    for (std::int64_t i = 0; i < n_layers; ++i) layers->push_back(std::make_shared<DecoderLayer>(c, gen));
    if (c.norm == nn::Norm::pre)
        norm = register_module("norm", std::make_shared<nn::LayerNorm>(c.d_model, c.layer_norm, c.layer_norm_eps));
}

Tensor Decoder::forward(const Tensor& x, const Tensor& memory, const Tensor& src_mask, const Tensor& tgt_mask) const {
    Tensor h = x;
    for (const auto& layer : *layers) h = layer->forward(h, memory, src_mask, tgt_mask);
    return norm ? norm->forward(h) : h;
}

Tensor Decoder::forward_cached(const Tensor& x_new, const Tensor& memory, const Tensor& src_mask,
                               DecoderCache& caches) const {
    if (caches.size() != layers->size())
        throw autograd::ValueError(fmt::format("Decoder: {} caches for {} layers", caches.size(), layers->size()));
    Tensor h = x_new;
    for (std::size_t i = 0; i < layers->size(); ++i) h = (*layers)[i].forward_cached(h, memory, src_mask, caches[i]);
    return norm ? norm->forward(h) : h;
}

double decoder_parameter_count(std::int64_t n_layers, const nn::BlockConfig& c) {
    const double layer = 2 * c.attention_parameters() + c.feed_forward_parameters() + 3 * c.norm_parameters();
    return static_cast<double>(n_layers) * layer + (c.norm == nn::Norm::pre ? c.norm_parameters() : 0);
}

}  // namespace models
