#include "models/gpt_block.h"

#include "nn/attention_mask.h"

namespace models {

GPTBlock::GPTBlock(std::int64_t d_model, std::int64_t heads, std::int64_t d_ff, double dropout, std::int64_t block_size,
                   std::int64_t experts, std::int64_t top_k, autograd::Generator& gen)
    : block(block_size) {
    attn = register_module("attn", std::make_shared<nn::MultiHeadAttention>(d_model, heads, dropout, gen));
    if (experts > 0)
        moe = register_module("moe", std::make_shared<nn::MixtureOfExperts>(d_model, d_ff, experts, top_k, dropout, gen));
    else
        mlp = register_module("mlp", std::make_shared<nn::FeedForward>(d_model, d_ff, dropout, nn::Activation::gelu, gen));
    sublayer = register_module("sublayer", std::make_shared<nn::ModuleList<nn::SublayerConnection>>());
    for (int i = 0; i < 2; ++i) sublayer->push_back(std::make_shared<nn::SublayerConnection>(d_model, dropout, nn::Norm::pre));
}

Tensor GPTBlock::forward(const Tensor& x) const {
    Tensor h = (*sublayer)[0].forward(x, [&](const Tensor& y) {
        return block > 0 ? attn->forward_block_local(y, block) : attn->forward(y, y, y, nn::subsequent_mask(y.size(1)));
    });
    return (*sublayer)[1].forward(h, [&](const Tensor& y) { return feed_forward(y); });
}

Tensor GPTBlock::forward_cached(const Tensor& x_new, nn::KVCache& cache, const Tensor& mask) const {
    Tensor h = (*sublayer)[0].forward(x_new, [&](const Tensor& y) { return attn->forward_cached(y, cache, mask); });
    return (*sublayer)[1].forward(h, [&](const Tensor& y) { return feed_forward(y); });
}

}  // namespace models
