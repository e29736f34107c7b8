#pragma once
#include <cstdint>
#include <memory>

#include "lectern/models/encoder.h"
#include "lectern/models/token_pooling.h"
#include "lectern/nn/dropout.h"
#include "lectern/nn/embedding.h"
#include "lectern/nn/learned_positional_embedding.h"
#include "lectern/nn/linear.h"

namespace models {

struct TextClassifierConfig {
    std::int64_t vocab = 0;
    std::int64_t max_len = 128;  // the longest text, in tokens ([CLASS] not counted)
    std::int64_t d_model = 64;
    std::int64_t n_layers = 2;  // N
    std::int64_t heads = 4;
    std::int64_t d_ff = 256;
    double dropout = 0.1;
    std::int64_t classes = 2;
    Pooling pooling = Pooling::cls;
    std::int64_t pad = 0;  // the padding token: masked from attention and from the mean
    std::uint64_t seed = 0;

    // Pre-norm blocks with a GELU MLP, as the ViT's and BERT's encoders.
    nn::BlockConfig block_config() const {
        return {d_model, heads, d_ff, dropout, nn::Norm::pre, nn::Activation::gelu};
    }
    // The parameters TextClassifier(*this) has, counted from the config alone: E_tok, x_class,
    // E_pos, the encoder and the head.
    double parameter_count() const;
};

// An encoder-only text classifier (002 "Sentiment classification": a sequence
// in, one output; 002 "Output transformations"):
//   h_0    = [x_class; E_tok[x_1]; ...; E_tok[x_T]] + E_pos      (cls pooling; mean: no x_class)
//   h_N    = Encoder(h_0, padding mask)                          (N pre-norm layers, final LN)
//   y      = h_N^0  or  (1 / #tokens) sum_{t not padding} h_N^t   (pool_tokens)
//   logits = y W_head + b_head
// Weights of two or more dimensions ~ N(0, 0.02^2) and biases 0 (BERT's initialisation).
class TextClassifier : public nn::Module {
public:
    explicit TextClassifier(const TextClassifierConfig& config);
    // ids int64 [B, T], T <= max_len, `pad` where a text is shorter -> logits [B, classes].
    // ValueError for a text that is all padding.
    Tensor forward(const Tensor& ids) const;
    // The encoder's outputs h_N [B, T + 1, D] ([CLASS] first) or [B, T, D] (mean
    // pooling), and in `mask` the padding mask they were computed under
    // [B, 1, T (+1)]: what forward() pools, and what a masked-language-model
    // head reads when the encoder is pre-trained on unlabelled text.
    Tensor encode(const Tensor& ids, Tensor* mask = nullptr) const;

    TextClassifierConfig config;
    std::shared_ptr<nn::Embedding> tok_embed;             // E_tok [vocab, D], unscaled
    Tensor class_token;                                   // x_class [1, 1, D]; undefined with mean pooling
    std::shared_ptr<nn::LearnedPositionalEmbedding> pos;  // E_pos [max_len (+1 for [CLASS]), D]
    std::shared_ptr<nn::Dropout> dropout;
    std::shared_ptr<Encoder> encoder;
    std::shared_ptr<nn::Linear> head;
};

}  // namespace models
