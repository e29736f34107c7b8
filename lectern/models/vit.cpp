#include "lectern/models/vit.h"

#include <map>

#include <fmt/format.h>

namespace models {

using namespace autograd;

ViT::ViT(const ViTConfig& c) : config(c) {
    if (c.depth <= 0 || c.classes <= 0)
        throw ValueError(fmt::format("ViT: depth {} and classes {} must be positive", c.depth, c.classes));
    Generator gen(c.seed);
    embed = register_module("embed", std::make_shared<PatchEmbedding>(c.image_size, c.channels, c.patch, c.d_model, gen,
                                                                      c.pooling == Pooling::cls));
    layers = register_module("layers", std::make_shared<nn::ModuleList<EncoderLayer>>());
    for (std::int64_t l = 0; l < c.depth; ++l) layers->push_back(std::make_shared<EncoderLayer>(c.block_config(), gen));
    norm = register_module("norm", std::make_shared<nn::LayerNorm>(c.d_model));
    head = register_module("head", std::make_shared<nn::Linear>(c.d_model, c.classes, true, gen));
}

//   z_0  = [x_class; x_p^1 E; ...; x_p^N E] + E_pos               PatchEmbedding
//   z'_l = MSA(LN(z_{l-1})) + z_{l-1},      l = 1..L               EncoderLayer (pre-norm,
//   z_l  = MLP(LN(z'_l)) + z'_l                                     GELU MLP)
//   y    = LN(z_L^0)                                                the [CLASS] position
//   (mean pooling: no x_class in z_0, and y = LN((1/N) sum_i z_L^i))
//   logits = y W_head + b_head
Tensor ViT::forward(const Tensor& images) const {
    Tensor z = (*embed)(images);                                        // z_0 [B, N+1, D] (mean: [B, N, D])
    for (const auto& layer : *layers) z = layer->forward(z, Tensor());  // no mask: every patch sees every patch
    Tensor y = (*norm)(pool_tokens(z, config.pooling));                 // LN(z_L^0) or LN(mean_i z_L^i) [B, D]
    return (*head)(y);
}

std::unique_ptr<ViT> with_new_head(const ViT& pretrained, std::int64_t classes, std::uint64_t seed) {
    ViTConfig c = pretrained.config;
    c.classes = classes, c.seed = seed;
    auto model = std::make_unique<ViT>(c);
    model->to(pretrained.dtype());
    nn::StateDict body = pretrained.state_dict();
    std::erase_if(body, [](const auto& named) { return named.first.starts_with("head."); });
    model->load_state_dict(body, /*strict=*/false);  // missing: head.weight and head.bias, left as drawn
    model->train(pretrained.is_training());
    return model;
}

double ViTConfig::parameter_count() const {
    const auto D = static_cast<double>(d_model), P = static_cast<double>(patch), K = static_cast<double>(classes);
    const double side = patch > 0 ? static_cast<double>(image_size / patch) : 0, cls = pooling == Pooling::cls ? 1 : 0;
    const double embedding = P * P * static_cast<double>(channels) * D + D + cls * D + (side * side + cls) * D;
    return embedding + static_cast<double>(depth) * encoder_layer_parameter_count(block_config()) +
           block_config().norm_parameters() + D * K + K;
}

}  // namespace models
