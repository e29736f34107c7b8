#pragma once
#include <memory>

#include "lectern/nn/block_config.h"
#include "lectern/nn/feed_forward.h"
#include "lectern/nn/multi_head_attention.h"
#include "lectern/nn/sublayer_connection.h"

namespace models {

using autograd::Tensor;

// One encoder block (001 EncoderLayer; 004 §15.5.4; 000's EncoderBlock; 003
// "Encoder layer"): self-attention, then the feed-forward network, each inside
// a residual sublayer. The equations are above forward() in the .cpp.
class EncoderLayer : public nn::Module {
public:
    EncoderLayer(const nn::BlockConfig& config, autograd::Generator& gen);
    // x [B, S, D], mask [B, 1, S] (padding; undefined: none) -> [B, S, D]; with a local
    // pattern, mask must be [B or 1, 1, S] or undefined.
    Tensor forward(const Tensor& x, const Tensor& mask) const;

    std::shared_ptr<nn::MultiHeadAttention> self_attn;
    std::shared_ptr<nn::FeedForward> feed_forward;
    std::shared_ptr<nn::ModuleList<nn::SublayerConnection>> sublayer;  // 001's sublayer[0] and [1]
    nn::AttentionPattern pattern;                                      // which keys self-attention reads
};

// An EncoderLayer's parameters, from its config: self-attention, the FFN and its two sublayers' norms.
double encoder_layer_parameter_count(const nn::BlockConfig& config);

}  // namespace models
