#pragma once
#include <cstdint>
#include <memory>

#include "models/encoder_layer.h"
#include "models/patch_embedding.h"
#include "nn/layer_norm.h"

namespace models {

struct ViTConfig {
    std::int64_t image_size = 28;
    std::int64_t channels = 1;
    std::int64_t patch = 4;   // P
    std::int64_t d_model = 64;  // D
    std::int64_t depth = 4;   // L
    std::int64_t heads = 4;
    std::int64_t mlp = 128;   // hidden width of the MLP block
    double dropout = 0.0;
    std::int64_t classes = 10;
    std::uint64_t seed = 0;
};

// The Vision Transformer, as 002's equations (004 §15.5.6; 000 §15.5.6):
//   z_0  = [x_class; x_p^1 E; ...; x_p^N E] + E_pos             (PatchEmbedding)
//   z'_l = MSA(LN(z_{l-1})) + z_{l-1},   l = 1..L                (pre-norm EncoderLayer,
//   z_l  = MLP(LN(z'_l)) + z'_l                                   GELU MLP)
//   y    = LN(z_L^0)                                              (the [CLASS] position)
// and a linear head maps y to class logits.
class ViT : public nn::Module {
public:
    explicit ViT(const ViTConfig& config);
    Tensor forward(const Tensor& images) const;  // [B, C, H, W] -> logits [B, classes]

    ViTConfig config;
    std::shared_ptr<PatchEmbedding> embed;
    std::shared_ptr<nn::ModuleList<EncoderLayer>> layers;
    std::shared_ptr<nn::LayerNorm> norm;
    std::shared_ptr<nn::Linear> head;
};

}  // namespace models
