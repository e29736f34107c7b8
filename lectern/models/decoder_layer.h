#pragma once
#include <memory>

#include "lectern/nn/block_config.h"
#include "lectern/nn/feed_forward.h"
#include "lectern/nn/multi_head_attention.h"
#include "lectern/nn/sublayer_connection.h"

namespace models {

using autograd::Tensor;

// What one decoder layer keeps between greedy-decoding steps: its
// self-attention keys/values so far and the encoder memory's projected
// keys/values (000 §15.5.4 note i keeps the layer's inputs instead: nn::KVCache).
struct DecoderLayerCache {
    nn::KVCache self_attn, src_attn;
};

// One decoder block (001 DecoderLayer; 004 §15.5.4; 000's DecoderBlock):
// masked self-attention, cross-attention to the encoder output (queries from
// the decoder, keys and values from memory), feed-forward; each in a residual
// sublayer. The equations are above forward() in the .cpp.
class DecoderLayer : public nn::Module {
public:
    DecoderLayer(const nn::BlockConfig& config, autograd::Generator& gen);
    // x [B, T, D], memory [B, S, D], src_mask [B, 1, S], tgt_mask [B or 1, T, T] -> [B, T, D]
    Tensor forward(const Tensor& x, const Tensor& memory, const Tensor& src_mask, const Tensor& tgt_mask) const;
    // The newest position(s) only, x_new [B, 1, D], attending through `cache`:
    // the same output as forward() on the whole prefix, for one token's work.
    Tensor forward_cached(const Tensor& x_new, const Tensor& memory, const Tensor& src_mask,
                          DecoderLayerCache& cache) const;

    std::shared_ptr<nn::MultiHeadAttention> self_attn, src_attn;
    std::shared_ptr<nn::FeedForward> feed_forward;
    std::shared_ptr<nn::ModuleList<nn::SublayerConnection>> sublayer;  // 001's sublayer[0], [1] and [2]
};

}  // namespace models
