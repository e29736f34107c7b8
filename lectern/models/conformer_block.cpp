#include "lectern/models/conformer_block.h"

namespace models {

ConformerBlock::ConformerBlock(const nn::BlockConfig& c, std::int64_t kernel, autograd::Generator& gen) {
    ffn_1 = register_module("ffn_1",
                            std::make_shared<nn::FeedForward>(c.d_model, c.d_ff, c.dropout, nn::Activation::silu, gen));
    self_attn =
        register_module("self_attn", std::make_shared<nn::MultiHeadAttention>(c.d_model, c.heads, c.dropout, gen));
    conv = register_module("conv", std::make_shared<nn::ConformerConvolution>(c.d_model, kernel, gen));
    ffn_2 = register_module("ffn_2",
                            std::make_shared<nn::FeedForward>(c.d_model, c.d_ff, c.dropout, nn::Activation::silu, gen));
    sublayer = register_module("sublayer", std::make_shared<nn::ModuleList<nn::SublayerConnection>>());
    for (int i = 0; i < 4; ++i) sublayer->push_back(std::make_shared<nn::SublayerConnection>(c.d_model, c.dropout));
    final_norm = register_module("final_norm", std::make_shared<nn::LayerNorm>(c.d_model));
}

// The paper's eq. 1, each sublayer pre-norm (nn::SublayerConnection: x + Dropout(f(LN(x)))):
//   x'   = x   + 1/2 FFN(LN(x))
//   x''  = x'  + MHSA(LN(x'))
//   x''' = x'' + Conv(LN(x''))
//   y    = LN(x''' + 1/2 FFN(LN(x''')))
// The 1/2 sits inside the sublayer: Dropout(FFN / 2) = Dropout(FFN) / 2.
Tensor ConformerBlock::forward(const Tensor& x) const {
    const auto& s = *sublayer;
    Tensor h = s[0](x, [&](const Tensor& y) { return (*ffn_1)(y)*0.5; });
    h = s[1](h, [&](const Tensor& y) { return self_attn->self_attention(y); });
    h = s[2](h, [&](const Tensor& y) { return (*conv)(y); });
    h = s[3](h, [&](const Tensor& y) { return (*ffn_2)(y)*0.5; });
    return (*final_norm)(h);
}

double conformer_block_parameter_count(const nn::BlockConfig& c, std::int64_t kernel) {
    return 2 * c.feed_forward_parameters() + c.attention_parameters() +
           nn::conformer_convolution_parameter_count(c.d_model, kernel) + 5 * c.norm_parameters();
}

}  // namespace models
