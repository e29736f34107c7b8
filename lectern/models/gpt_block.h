#pragma once
#include <memory>

#include "lectern/nn/block_config.h"
#include "lectern/nn/feed_forward.h"
#include "lectern/nn/mixture_of_experts.h"
#include "lectern/nn/multi_head_attention.h"
#include "lectern/nn/sublayer_connection.h"

namespace models {

using autograd::Tensor;

// One decoder-only block (002 "The Big Picture and Takeaways", Decoders; nanoGPT's Block), pre-norm; the
// equations are above forward() in the .cpp. The attention is causal over the whole prefix, or block-local (block = L > 0:
// causal within blocks of L positions, 004 §15.6.1). The MLP is a GELU
// FeedForward, or a MixtureOfExperts (experts > 0, 004 §15.5.7). Dropout acts on the
// attention weights P, on the MLP's hidden units (FeedForward, as 001's) and on each
// sublayer's output; nanoGPT's MLP drops only its output.
class GPTBlock : public nn::Module {
public:
    // `config`'s norm is not read: a GPT block is pre-norm; its activation is a GELU, exact or tanh.
    GPTBlock(const nn::BlockConfig& config, std::int64_t block, std::int64_t experts, std::int64_t top_k,
             autograd::Generator& gen);
    // x [B, T, D] -> [B, T, D]
    Tensor forward(const Tensor& x) const;
    // x_new [B, t, D], the newest positions; `mask` [1, t, past + t] (undefined
    // when t = 1 with full attention: the newest token sees every cached key).
    Tensor forward_cached(const Tensor& x_new, nn::KVCache& cache, const Tensor& mask) const;
    // The MoE's load-balancing loss of the last forward; undefined without MoE.
    Tensor aux_loss() const { return moe ? moe->aux_loss() : Tensor(); }

    std::shared_ptr<nn::MultiHeadAttention> attn;
    std::shared_ptr<nn::FeedForward> mlp;  // one of mlp and moe is set
    std::shared_ptr<nn::MixtureOfExperts> moe;
    std::shared_ptr<nn::ModuleList<nn::SublayerConnection>> sublayer;  // around attention, around the MLP
    std::int64_t block;
    nn::AttentionPattern pattern;  // causal, over the whole prefix or within blocks of `block`

private:
    Tensor feed_forward(const Tensor& y) const { return moe ? moe->forward(y) : mlp->forward(y); }
};

// A GPTBlock's parameters, from its arguments: attention, the MLP (or the router's D x E and E
// experts' MLPs) and two sublayers' norms.
double gpt_block_parameter_count(const nn::BlockConfig& config, std::int64_t experts);

}  // namespace models
