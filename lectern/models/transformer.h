#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "lectern/models/decoder.h"
#include "lectern/models/encoder.h"
#include "lectern/models/generator.h"
#include "lectern/nn/embedding.h"
#include "lectern/nn/make_positional_encoding.h"
#include "lectern/nn/positional_encoding.h"

namespace models {

struct TransformerConfig {
    std::int64_t src_vocab = 11;
    std::int64_t tgt_vocab = 11;
    std::int64_t n_layers = 6;  // N
    std::int64_t d_model = 512;
    std::int64_t d_ff = 2048;
    std::int64_t heads = 8;  // h
    double dropout = 0.1;
    nn::Norm norm = nn::Norm::pre;
    nn::Activation activation = nn::Activation::relu;
    nn::LayerNormFormula layer_norm = nn::LayerNormFormula::standard;  // 003's, or 001's exactly
    bool scaled_attention = true;  // false: every attention without 1/sqrt(d_k) (001's dot-product attention)
    // Every attention's compatibility function: the dot product, or additive attention (001).
    nn::Compatibility compatibility = nn::Compatibility::dot;
    nn::AttentionPattern encoder_attention;  // the encoder's self-attention: full, or local (004 §15.6.1)
    bool share_embeddings = false;  // one matrix for source, target and generator (001 "Embeddings and Softmax")
    // How source and target learn where each token is (nn/make_positional_encoding.h): 001's sinusoid
    // added, or none, learned, 004's binary code, the sinusoid concatenated.
    nn::Positions positions = nn::Positions::sinusoidal;
    std::int64_t position_width = 0;  // K of concatenated positions; 0: nn::default_concat_width(d_model)
    std::int64_t max_len = 5000;
    std::uint64_t seed = 0;  // of the Glorot initialisation

    nn::BlockConfig block_config() const {
        nn::BlockConfig c{d_model,          heads, d_ff, dropout, norm, activation, layer_norm, scaled_attention,
                          encoder_attention};
        c.compatibility = compatibility;
        return c;
    }
    // The parameters Transformer(*this) has, counted from the config alone (a memory estimate
    // before the model is built; in double, as nn::BlockConfig's parts): the embeddings (one
    // matrix when shared), learned positions' tables, the encoder, the decoder and the
    // generator (its bias alone when shared).
    double parameter_count() const;
};

// The encoder-decoder Transformer, composed as 001's EncoderDecoder
// (004 §15.5.4 Figure 15.26; 000's pseudocode):
//   memory = Encoder(POS(Embed(src)))             encode
//   out    = Decoder(POS(Embed(tgt)), memory)     decode
// and the Generator turns `out` into log-probabilities. POS is config.positions,
// followed by dropout; with concatenated positions Embed is K narrower than d_model. With teacher forcing
// (000 note i) the whole target is decoded in one pass under the causal mask.
class Transformer : public nn::Module {
public:
    explicit Transformer(const TransformerConfig& config);

    // src int64 [B, S], src_mask [B, 1, S] -> memory [B, S, D]
    Tensor encode(const Tensor& src, const Tensor& src_mask) const;
    // tgt int64 [B, T], tgt_mask [B or 1, T, T] -> [B, T, D]
    Tensor decode(const Tensor& memory, const Tensor& src_mask, const Tensor& tgt, const Tensor& tgt_mask) const;
    Tensor forward(const Tensor& src, const Tensor& tgt, const Tensor& src_mask, const Tensor& tgt_mask) const;

    // Cached decoding (000 §15.5.4 note i): the newest target tokens last
    // int64 [B, 1], at position `position`, through the decoder with `cache`
    // (start from new_cache()) -> [B, 1, D]; equals decode() of the whole
    // prefix at that position, for one token's work.
    Tensor decode_step(const Tensor& memory, const Tensor& src_mask, const Tensor& last, std::int64_t position,
                       DecoderCache& cache) const;
    DecoderCache new_cache() const { return DecoderCache(decoder->layers->size()); }

    TransformerConfig config;
    std::shared_ptr<nn::Embedding> src_embed, tgt_embed;  // scaled by the square root of their width (001)
    std::shared_ptr<nn::PositionalEncoding> src_pos, tgt_pos;
    std::shared_ptr<Encoder> encoder;
    std::shared_ptr<Decoder> decoder;
    std::shared_ptr<models::Generator> generator;
};

// 001's make_model: builds the model and initialises every parameter of two or
// more dims with Glorot / fan_avg uniform ("this was important from their code").
std::shared_ptr<Transformer> make_transformer(const TransformerConfig& config);

// The decoder's mask as Batch.make_std_mask (001's full post): a position may attend to
// earlier positions that are not padding. tgt [B, T] -> [B, T, T].
Tensor target_mask(const Tensor& tgt, std::int64_t pad);

}  // namespace models
