#include "lectern/models/transformer.h"

#include <fmt/format.h>

#include "lectern/nn/attention_mask.h"
#include "lectern/nn/init.h"
#include "lectern/nn/make_positional_encoding.h"

namespace models {

Transformer::Transformer(const TransformerConfig& c) : config(c) {
    if (c.share_embeddings && c.src_vocab != c.tgt_vocab)
        throw autograd::ValueError(
            fmt::format("Transformer: shared embeddings need one vocabulary, got {} and {}", c.src_vocab, c.tgt_vocab));
    if (c.n_layers <= 0) throw autograd::ValueError(fmt::format("Transformer: N = {} layers", c.n_layers));
    if (c.share_embeddings && c.positions == nn::Positions::concatenated)
        throw autograd::ValueError(
            "Transformer: shared embeddings need them d_model wide, and concatenated positions make them narrower");
    autograd::Generator gen(c.seed);
    // The positions fix the embeddings' width. A learned table draws from a stream of its own, so
    // every kind builds the same embeddings and layers from the same seed.
    autograd::Generator pos_gen(c.seed + 0x9e3779b97f4a7c15ULL);
    auto pos = [&] {
        return nn::make_positional_encoding(c.positions, c.d_model, c.max_len, c.dropout, c.position_width, pos_gen);
    };
    auto src_positions = pos(), tgt_positions = pos();
    const std::int64_t width = src_positions->input_width();
    src_embed = register_module("src_embed", std::make_shared<nn::Embedding>(c.src_vocab, width, true, gen));
    tgt_embed = register_module("tgt_embed", std::make_shared<nn::Embedding>(c.tgt_vocab, width, true, gen));
    src_pos = register_module("src_pos", src_positions);
    tgt_pos = register_module("tgt_pos", tgt_positions);
    encoder = register_module("encoder", std::make_shared<Encoder>(c.n_layers, c.block_config(), gen));
    decoder = register_module("decoder", std::make_shared<Decoder>(c.n_layers, c.block_config(), gen));
    generator = register_module("generator", std::make_shared<models::Generator>(c.d_model, c.tgt_vocab, gen));
    if (c.share_embeddings) {
        tgt_embed->weight = tgt_embed->replace_parameter("weight", src_embed->weight);
        generator->proj->weight = generator->proj->replace_parameter("weight", src_embed->weight);
    }
}

Tensor Transformer::encode(const Tensor& src, const Tensor& src_mask) const {
    return encoder->forward(src_pos->forward(src_embed->forward(src)), src_mask);
}

Tensor Transformer::decode(const Tensor& memory, const Tensor& src_mask, const Tensor& tgt,
                           const Tensor& tgt_mask) const {
    return decoder->forward(tgt_pos->forward(tgt_embed->forward(tgt)), memory, src_mask, tgt_mask);
}

Tensor Transformer::decode_step(const Tensor& memory, const Tensor& src_mask, const Tensor& last, std::int64_t position,
                                DecoderCache& cache) const {
    return decoder->forward_cached(tgt_pos->forward(tgt_embed->forward(last), position), memory, src_mask, cache);
}

Tensor Transformer::forward(const Tensor& src, const Tensor& tgt, const Tensor& src_mask,
                            const Tensor& tgt_mask) const {
    return decode(encode(src, src_mask), src_mask, tgt, tgt_mask);
}

std::shared_ptr<Transformer> make_transformer(const TransformerConfig& config) {
    auto model = std::make_shared<Transformer>(config);
    autograd::Generator gen(config.seed + 1);
    for (auto& [name, p] : model->named_parameters())
        if (p.dim() > 1) nn::init::xavier_uniform_(p, gen);
    return model;
}

Tensor target_mask(const Tensor& tgt, std::int64_t pad) {
    return nn::mask_and(nn::padding_mask(tgt, pad), nn::subsequent_mask(tgt.size(1)));
}

double TransformerConfig::parameter_count() const {
    const auto width = static_cast<double>(nn::embedding_width(positions, d_model, position_width));
    const auto D = static_cast<double>(d_model), V_src = static_cast<double>(src_vocab);
    const auto V = static_cast<double>(tgt_vocab);
    const double embeddings = (share_embeddings ? V_src : V_src + V) * width;
    const double generator = (share_embeddings ? 0 : D * V) + V;
    return embeddings + 2 * nn::positional_parameter_count(positions, d_model, max_len) +
           encoder_parameter_count(n_layers, block_config()) + decoder_parameter_count(n_layers, block_config()) +
           generator;
}

}  // namespace models
