#pragma once
#include <memory>

#include "nn/feed_forward.h"
#include "nn/multi_head_attention.h"
#include "nn/sublayer_connection.h"

namespace models {

using autograd::Tensor;

// One encoder block (001 EncoderLayer; 004 §15.5.4; 000's EncoderBlock; 003 "Encoder layer"):
// self-attention, then the feed-forward network, each inside a residual sublayer:
//   pre-norm:  h' = h + MHSA(LN(h)),   out = h' + FFN(LN(h'))
//   post-norm: h' = LN(h + MHSA(h)),   out = LN(h' + FFN(h'))
class EncoderLayer : public nn::Module {
public:
    EncoderLayer(std::int64_t d_model, std::int64_t heads, std::int64_t d_ff, double dropout, nn::Norm norm,
                 nn::Activation activation, autograd::Generator& gen);
    // x [B, S, D], mask [B, 1, S] (padding) -> [B, S, D]
    Tensor forward(const Tensor& x, const Tensor& mask) const;

    std::shared_ptr<nn::MultiHeadAttention> self_attn;
    std::shared_ptr<nn::FeedForward> feed_forward;
    std::shared_ptr<nn::ModuleList<nn::SublayerConnection>> sublayer;
};

}  // namespace models
