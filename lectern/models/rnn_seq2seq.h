#pragma once
// The "traditional" encoder-decoder attention (003 "Traditional attention": a matrix computed by a
// neural network that weighs each token of one sequence against the tokens of another; 004 §15.5.1,
// which points back to §15.4.4, where "the decoder of an RNN could use attention to the input
// sequence"): Bahdanau et al.'s RNN encoder-decoder, the model the Transformer replaced. A GRU reads
// the source, and a second GRU writes the target one token at a time, attending at every step over
// all the encoder's states with additive scores (001's "feed-forward network with a single hidden
// layer", nn/additive_attention.h):
//   h_1..h_S = GRU_enc(E_src x_1, ..., E_src x_S)              the encoder's states      [B, S, H]
//   s_0      = h_{S_b}                                         the state after sequence b's last real token
//   e_ij     = v^T tanh(W_q s_{i-1} + W_k h_j)                 additive scores (W_k h_j computed once)
//   alpha_i  = softmax_j(e_ij + M_j)                           M_j = -inf at the source's padding
//   c_i      = sum_j alpha_ij h_j                              the context                [B, H]
//   s_i      = GRU_dec([E_tgt y_{i-1} ; c_i], s_{i-1})         the context feeds the recurrence
//   log p(y_i | y_<i, x) = log_softmax(W_o [s_i ; c_i] + b_o)  ... and the output
// Teacher forcing (forward) feeds the true y_{i-1}; greedy decoding (greedy_decode.h) feeds back the
// most probable token. Unlike the Transformer's decoder, no step can run before the one before it
// has: the sequential bottleneck 004 §15.5.1 says self-attention overcomes.
//
// Departures from Bahdanau et al. (docs/notes_to_code.md): the encoder runs one way (theirs both,
// its states [h_fwd ; h_bwd]), s_0 is the encoder's last state (theirs tanh(W_s h_bwd_1)), and the
// output is one linear layer of [s_i ; c_i] (theirs a maxout layer that also reads E y_{i-1}).
#include <cstdint>
#include <memory>

#include "lectern/models/generator.h"
#include "lectern/nn/additive_attention.h"
#include "lectern/nn/embedding.h"
#include "lectern/nn/gru.h"

namespace models {

using autograd::Tensor;

struct RnnSeq2SeqConfig {
    std::int64_t src_vocab = 11;
    std::int64_t tgt_vocab = 11;
    std::int64_t d_embed = 32;      // E, the width of both embeddings
    std::int64_t hidden = 32;       // H, the encoder's and the decoder's state
    std::int64_t d_attention = 32;  // d_a, the width of the additive score's hidden layer
    std::int64_t pad = 0;           // the source's padding id, masked out of every alpha_i
    std::uint64_t seed = 0;         // of every initialisation (each layer's own, as PyTorch's)

    // The parameters RnnSeq2Seq(*this) has, counted from the config alone: the two embeddings,
    // the encoder GRU (3H (E + H) weights, 6H biases), the attention (W_q, W_k, v), the decoder
    // GRU (its input E + H wide) and the output layer (2H -> V).
    double parameter_count() const;
};

// What every decoder step reads of the source, computed once by encode().
struct EncodedSource {
    Tensor states;  // h_1..h_S [B, S, H], the values attended over
    Tensor keys;    // W_k h_j [B, S, d_a], the keys' half of every score
    Tensor mask;    // int64 [B, 1, S], 1 at a real token
    Tensor last;    // s_0 = h_{S_b} [B, H]
};

// One decoder step, i -> i + 1.
struct RnnStep {
    Tensor log_probs;  // log p(y_i | y_<i, x) [B, tgt_vocab]
    Tensor state;      // s_i [B, H]
    Tensor weights;    // alpha_i [B, S]
};

class RnnSeq2Seq : public nn::Module {
public:
    explicit RnnSeq2Seq(const RnnSeq2SeqConfig& config);

    // src int64 [B, S], each sequence's padding (config.pad) after its tokens -> what the decoder
    // reads. ShapeError for another shape, ValueError for a sequence of padding only.
    EncodedSource encode(const Tensor& src) const;
    // y_{i-1} int64 [B] and s_{i-1} [B, H] -> y_i's log-probabilities, s_i and alpha_i: the
    // equations above, once.
    RnnStep step(const EncodedSource& source, const Tensor& state, const Tensor& previous) const;
    // Teacher forcing: src [B, S], tgt_in int64 [B, T] (y_0 = the start symbol .. y_{T-1}) ->
    // log-probabilities [B, T, tgt_vocab] of y_1..y_T; with `weights`, every alpha_i there,
    // [B, T, S].
    Tensor forward(const Tensor& src, const Tensor& tgt_in, Tensor* weights = nullptr) const;

    RnnSeq2SeqConfig config;
    std::shared_ptr<nn::Embedding> src_embed, tgt_embed;  // unscaled (no sqrt(E): no sum with positions here)
    std::shared_ptr<nn::GRU> encoder;                     // E -> H
    std::shared_ptr<nn::AdditiveAttention> attention;     // W_q [d_a, H], W_k [d_a, H], v [d_a]
    std::shared_ptr<nn::GRU> decoder;                     // E + H -> H
    std::shared_ptr<models::Generator> generator;         // W_o [V, 2H], b_o, then log-softmax
};

}  // namespace models
