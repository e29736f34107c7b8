#include "fuzz/fuzz_models.h"

namespace fuzz {

std::shared_ptr<models::Transformer> tiny_transformer() {
    models::TransformerConfig c;
    c.src_vocab = c.tgt_vocab = 5;
    c.n_layers = 1, c.d_model = 4, c.d_ff = 8, c.heads = 2, c.dropout = 0, c.max_len = 16;
    return models::make_transformer(c);
}

std::shared_ptr<models::GPT> tiny_gpt2() {
    models::GPTConfig c;
    c.vocab = 3, c.context = 2, c.d_model = 4, c.heads = 1, c.n_layers = 1, c.d_ff = 4;
    c.activation = nn::Activation::gelu_tanh;
    return models::make_gpt(c);
}

}  // namespace fuzz
