#pragma once
#include <cstdint>
#include <memory>

#include "lectern/models/encoder_layer.h"
#include "lectern/models/patch_embedding.h"
#include "lectern/models/token_pooling.h"
#include "lectern/nn/layer_norm.h"

namespace models {

struct ViTConfig {
    std::int64_t image_size = 28;
    std::int64_t channels = 1;
    std::int64_t patch = 4;     // P
    std::int64_t d_model = 64;  // D
    std::int64_t depth = 4;     // L
    std::int64_t heads = 4;
    std::int64_t mlp = 128;  // hidden width of the MLP block
    double dropout = 0.0;
    std::int64_t classes = 10;
    // cls: the head reads the [CLASS] position (002's y = LN(z_L^0)); mean: the
    // mean of the N patch outputs, y = LN((1/N) sum_i z_L^i), and no [CLASS]
    // token is prepended (002 "Output transformations").
    Pooling pooling = Pooling::cls;
    std::uint64_t seed = 0;
    // Which tokens each token attends to (004 §15.6.1): all, or a local pattern over the
    // sequence [CLASS], patch 1, ... (a block-local [CLASS] sees only its own block).
    nn::AttentionPattern attention;

    // 002's ViT blocks are pre-norm with a GELU MLP.
    nn::BlockConfig block_config() const {
        return {d_model, heads,    mlp, dropout, nn::Norm::pre, nn::Activation::gelu, nn::LayerNormFormula::standard,
                true,    attention};
    }
    // The parameters ViT(*this) has, counted from the config alone: the patch embedding E (with
    // its bias), x_class and E_pos, the L blocks, the final LN and the head.
    double parameter_count() const;
};

// The Vision Transformer (002's ViT equations; 004 §15.5.6; 000 §15.5.6):
// patch embedding, L pre-norm encoder blocks with a GELU MLP, and a linear
// head on the normalised [CLASS] position (or on the normalised mean of the
// patch outputs: config.pooling). The equations are above forward() in the .cpp.
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

// Transfer learning (000 §15.5.6, 004 §15.5.6: after supervised pretraining the model is
// fine-tuned on a downstream classification task): a ViT for `classes` classes whose body (the
// patch embedding E with x_class and E_pos, the L blocks, the final LN) starts as a copy of
// `pretrained`'s, and whose head W_head, b_head is new, drawn as ViT(config with `classes` and
// `seed`) draws its own. What a PyTorch user writes as load_state_dict(strict=False) of the
// pre-trained weights without head.*; the copy shares no tensor with `pretrained`, and takes its
// dtype and its train/eval mode.
std::unique_ptr<ViT> with_new_head(const ViT& pretrained, std::int64_t classes, std::uint64_t seed);

}  // namespace models
