#pragma once
#include <cstdint>
#include <optional>

#include "lectern/nn/attention_pattern.h"
#include "lectern/nn/feed_forward.h"
#include "lectern/nn/layer_norm.h"
#include "lectern/nn/multi_head_attention.h"
#include "lectern/nn/sublayer_connection.h"

namespace nn {

// What every transformer block is built from: the arguments 001's make_model
// passes to each EncoderLayer and DecoderLayer (004 §15.5.4), and the choices
// the notes differ on. One value, so a block's constructor takes it whole.
struct BlockConfig {
    std::int64_t d_model = 512;
    std::int64_t heads = 8;    // h; d_k = d_v = d_model / h
    std::int64_t d_ff = 2048;  // the feed-forward network's hidden width
    double dropout = 0.1;
    Norm norm = Norm::pre;                                     // where the residual's LayerNorm sits (003)
    Activation activation = Activation::relu;                  // the FFN's phi: ReLU (001) or GELU (002's MLP)
    LayerNormFormula layer_norm = LayerNormFormula::standard;  // 003's or 001's LayerNorm
    bool scaled_attention = true;               // P = softmax(Q K^T / sqrt(d_k)) (001); false: softmax(Q K^T)
    AttentionPattern encoder_attention = {};    // an encoder block's self-attention: full, or local (004 §15.6.1)
    std::optional<double> layer_norm_eps = {};  // the LayerNorms' eps; unset: the formula's own (1e-5, 1e-6)
    Compatibility compatibility = Compatibility::dot;  // every attention's scores: q.k, or additive (001)

    // The parameters of a block's parts, from the config alone: what a model's config adds
    // up to count its model before building it (TransformerConfig::parameter_count and kin).
    // In double, as those counts are: a configuration of any size, even one a program's flags
    // ask for and that no memory could hold, counts without overflow (exactly below 2^53).
    // A MultiHeadAttention: W^Q, W^K, W^V, W^O, each D x D with a bias; additive scores add v [H, d_k].
    double attention_parameters() const {
        const auto D = static_cast<double>(d_model);
        return 4 * (D * D + D) + (compatibility == Compatibility::additive ? D : 0);
    }
    // A FeedForward: W_1 [d_ff, D] and b_1, W_2 [D, d_ff] and b_2.
    double feed_forward_parameters() const {
        const auto D = static_cast<double>(d_model), F = static_cast<double>(d_ff);
        return 2 * D * F + F + D;
    }
    // A LayerNorm: gamma and beta (001's a_2 and b_2).
    double norm_parameters() const { return 2 * static_cast<double>(d_model); }
};

}  // namespace nn
