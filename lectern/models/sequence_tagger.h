#pragma once
// One token in, one label out, at every position, with the middle of the model chosen from
// 004 §15.5.5 Table 15.1's three rows (and Figure 15.27: the same map x_{1:n} -> y_{1:n} by
// a 1-D CNN, an RNN and self-attention). All three are causal, so y_t may depend on x_1..x_t,
// unless self-attention is made bidirectional (with or without a fixed pattern of 004 §15.6.1):
//   h = Embed(x)                                                   [B, T, d]
//   self-attention: h = Encoder(h + POS, causal mask or none)      N pre-norm encoder layers (001)
//   recurrent:      h = GRU_N(... GRU_1(h))                        nn/gru.h
//   convolutional:  h = h + ReLU(Conv_l(LN(h))), l = 1..N, then LN causal, kernel k, dilation 1 or k^(l-1)
//   logits = h W^T + b                                             [B, T, V], the same head for all
// How far back y_t can see: self-attention every position, in one layer (path O(1)); the GRU
// every position, through t - s steps of its recurrence (O(n)); the CNN N (k - 1) positions, or
// k^N - 1 with dilation (Table 15.1: n / k layers, log_k n dilated, before two positions meet).
#include <cstdint>
#include <memory>
#include <string>

#include "lectern/models/encoder.h"
#include "lectern/nn/conv1d.h"
#include "lectern/nn/embedding.h"
#include "lectern/nn/gru.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/sinusoidal_positional_encoding.h"

namespace models {

enum class SequenceLayer { self_attention, recurrent, convolutional };
std::string name_of(SequenceLayer layer);  // "self-attention", "recurrent", "convolutional"

struct SequenceTaggerConfig {
    SequenceLayer layer = SequenceLayer::self_attention;
    std::int64_t vocab = 11;            // V, of inputs and labels
    std::int64_t d_model = 32;          // d: the embedding, every layer's width and the GRU's hidden size
    std::int64_t n_layers = 2;          // N
    std::int64_t heads = 2, d_ff = 64;  // self-attention's; no dropout
    // Self-attention only: read the keys on both sides, so y_t may depend on every x, and which
    // of them (004 §15.6.1's fixed patterns, nn::AttentionPattern). A pattern other than full
    // needs bidirectional: EncoderLayer's patterns read both ways.
    bool bidirectional = false;
    nn::AttentionPattern attention = {};
    std::int64_t kernel = 3;      // k, the convolutions'
    bool dilated = false;         // the convolutions' dilation k^(l-1) in layer l (ByteNet's; 001 "Background")
    std::int64_t max_len = 4096;  // the sinusoid's table
    std::uint64_t seed = 0;       // of the initialisation

    // The self-attention layers' blocks: pre-norm, ReLU, no dropout, the pattern above.
    nn::BlockConfig block_config() const {
        nn::BlockConfig block{d_model, heads, d_ff, 0.0};
        block.encoder_attention = attention;
        return block;
    }
    // The parameters SequenceTagger(*this) has, counted from the config alone (in double, as
    // nn::BlockConfig's parts): the embedding, the N layers of its kind (an encoder with its
    // final norm; GRUs; convolutions with a norm before each and one after the last) and the head.
    double parameter_count() const;
};

// How many positions back y_t of a causal model can read in a sequence of T: T - 1 for self-attention and the GRU,
// the convolutions' receptive field less one, N (k - 1) or (dilated) k^N - 1, at most T - 1. ValueError where
// the receptive field does not fit in int64 (as the constructor refuses such a model).
std::int64_t reach(const SequenceTaggerConfig& config, std::int64_t T);

// The most convolutional layers of kernel k whose dilations and receptive field fit in int64
// (dilated, k^N - 1: 39 layers of k = 3), for a program to check its flags against.
std::int64_t max_conv_layers(std::int64_t kernel, bool dilated);

class SequenceTagger : public nn::Module {
public:
    explicit SequenceTagger(const SequenceTaggerConfig& config);

    // ids int64 [B, T] -> logits [B, T, V]; position t reads ids[:, 0..t] only (bidirectional:
    // every position its pattern reaches).
    Tensor forward(const Tensor& ids) const;
    Tensor operator()(const Tensor& ids) const { return forward(ids); }

    SequenceTaggerConfig config;
    std::shared_ptr<nn::Embedding> embed;
    std::shared_ptr<nn::SinusoidalPositionalEncoding> pos;      // self-attention only
    std::shared_ptr<Encoder> encoder;                           // self-attention only
    std::shared_ptr<nn::ModuleList<nn::GRU>> grus;              // recurrent only
    std::shared_ptr<nn::ModuleList<nn::Conv1d>> convs;          // convolutional only
    std::shared_ptr<nn::ModuleList<nn::LayerNorm>> conv_norms;  // convolutional: before each conv, and the last
    std::shared_ptr<nn::Linear> head;
};

}  // namespace models
