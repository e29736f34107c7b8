#pragma once
#include <memory>

#include "lectern/nn/block_config.h"
#include "lectern/nn/conformer_convolution.h"
#include "lectern/nn/feed_forward.h"
#include "lectern/nn/multi_head_attention.h"
#include "lectern/nn/sublayer_connection.h"

namespace models {

using autograd::Tensor;

// One conformer block (004 §15.5.7: a transformer with convolutional layers inside; the cited
// paper's block, Gulati et al. 2020, eq. 1): between two feed-forward halves ("macaron": each
// FFN's residual weighted by 1/2), self-attention then the convolution module, then a final
// LayerNorm. Every sublayer is pre-norm with dropout on its output; the equations are above
// forward() in the .cpp. The attention is nn::MultiHeadAttention over the whole sequence, with
// no relative positions (the paper's): positions come with the input, as in the encoder.
class ConformerBlock : public nn::Module {
public:
    // `config`'s norm and activation are not read: the block is pre-norm and its FFNs use Swish.
    // `kernel` is the depthwise convolution's.
    ConformerBlock(const nn::BlockConfig& config, std::int64_t kernel, autograd::Generator& gen);
    // x [B, T, D] -> [B, T, D], sequences of one length (no padding mask: the convolution would
    // read the pads).
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }

    std::shared_ptr<nn::FeedForward> ffn_1, ffn_2;  // the two halves
    std::shared_ptr<nn::MultiHeadAttention> self_attn;
    std::shared_ptr<nn::ConformerConvolution> conv;
    // around ffn_1, self_attn, conv, ffn_2, in that order
    std::shared_ptr<nn::ModuleList<nn::SublayerConnection>> sublayer;
    std::shared_ptr<nn::LayerNorm> final_norm;
};

// A ConformerBlock's parameters, from its config: two FFNs, self-attention, the convolution
// module, four sublayer norms and the final one.
double conformer_block_parameter_count(const nn::BlockConfig& config, std::int64_t kernel);

}  // namespace models
