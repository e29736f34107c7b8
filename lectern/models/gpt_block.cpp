#include "lectern/models/gpt_block.h"

namespace models {

GPTBlock::GPTBlock(const nn::BlockConfig& c, std::int64_t block_size, std::int64_t experts, std::int64_t top_k,
                   autograd::Generator& gen)
    : block(block_size),
      pattern(block_size > 0 ? nn::AttentionPattern::block_local(block_size, nn::Direction::causal)
                             : nn::AttentionPattern::full(nn::Direction::causal)) {
    attn = register_module("attn", std::make_shared<nn::MultiHeadAttention>(c.d_model, c.heads, c.dropout, gen));
    attn->scaled = c.scaled_attention;
    if (c.compatibility == nn::Compatibility::additive) attn->use_additive_scores(gen);
    if (experts > 0)
        moe = register_module("moe", std::make_shared<nn::MixtureOfExperts>(c.d_model, c.d_ff, experts, top_k,
                                                                            c.dropout, gen));
    else
        mlp =
            register_module("mlp", std::make_shared<nn::FeedForward>(c.d_model, c.d_ff, c.dropout, c.activation, gen));
    sublayer = register_module("sublayer", std::make_shared<nn::ModuleList<nn::SublayerConnection>>());
    for (int i = 0; i < 2; ++i)
        sublayer->push_back(std::make_shared<nn::SublayerConnection>(c.d_model, c.dropout, nn::Norm::pre, c.layer_norm,
                                                                     c.layer_norm_eps));
}

//   h'  = h  + CausalSelfAttention(LN(h))      causal over the prefix, or within blocks of L (004 §15.6.1)
//   out = h' + MLP(LN(h'))                      GELU MLP, or the mixture of experts (004 §15.5.7)
Tensor GPTBlock::forward(const Tensor& x) const {
    const nn::SublayerConnection &around_attention = (*sublayer)[0], &around_mlp = (*sublayer)[1];
    Tensor h = around_attention(x, [&](const Tensor& y) { return attn->self_attention(y, Tensor(), pattern); });
    return around_mlp(h, [&](const Tensor& y) { return feed_forward(y); });
}

// The same equations for the newest positions, attending through the cache.
Tensor GPTBlock::forward_cached(const Tensor& x_new, nn::KVCache& cache, const Tensor& mask) const {
    const nn::SublayerConnection &around_attention = (*sublayer)[0], &around_mlp = (*sublayer)[1];
    Tensor h = around_attention(x_new, [&](const Tensor& y) { return attn->forward_cached(y, cache, mask); });
    return around_mlp(h, [&](const Tensor& y) { return feed_forward(y); });
}

double gpt_block_parameter_count(const nn::BlockConfig& c, std::int64_t experts) {
    const auto E = static_cast<double>(experts);
    const double mlp = experts > 0 ? static_cast<double>(c.d_model) * E + E * c.feed_forward_parameters()
                                   : c.feed_forward_parameters();
    return c.attention_parameters() + mlp + 2 * c.norm_parameters();
}

}  // namespace models
