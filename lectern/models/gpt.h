#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "lectern/models/gpt_block.h"
#include "lectern/nn/dropout.h"
#include "lectern/nn/embedding.h"
#include "lectern/nn/layer_norm.h"
#include "lectern/nn/learned_positional_embedding.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/make_positional_encoding.h"
#include "lectern/nn/positional_encoding.h"

namespace models {

using Positions = nn::Positions;  // none, sinusoidal, learned, binary, concatenated

struct GPTConfig {
    std::int64_t vocab = 0;
    std::int64_t context = 128;  // the longest sequence (the positions' table)
    std::int64_t d_model = 128;
    std::int64_t n_layers = 4;
    std::int64_t heads = 4;
    std::int64_t d_ff = 512;
    double dropout = 0.0;
    Positions positions = Positions::learned;
    std::int64_t position_width = 0;  // K of concatenated positions; 0: nn::default_concat_width(d_model)
    bool tie_weights =
        true;                // output projection = token embedding^T (001 "Embeddings and Softmax"; unscaled, as GPT-2)
    std::int64_t block = 0;  // 0: full causal attention; L > 0: block-local, blocks of L positions (004 §15.6.1)
    std::int64_t experts = 0;  // 0: GELU MLP; E > 0: mixture of E experts (004 §15.5.7)
    std::int64_t top_k = 2;    // experts per token
    std::uint64_t seed = 0;
    // The MLP's GELU: exact, or GPT-2's tanh approximation (autograd::gelu_tanh).
    nn::Activation activation = nn::Activation::gelu;
    double layer_norm_eps = 1e-5;  // every LayerNorm's (the blocks' and the final one); GPT-2's layer_norm_epsilon

    // A GPT block is pre-norm with a GELU MLP (nanoGPT, GPT-2).
    nn::BlockConfig block_config() const {
        nn::BlockConfig b{d_model, heads, d_ff, dropout, nn::Norm::pre, activation};
        b.layer_norm_eps = layer_norm_eps;
        return b;
    }
    // The parameters GPT(*this) has, counted from the config alone (a memory estimate before the
    // model is built; a GPT-2 size's published count): E_tok, learned positions' table, the
    // blocks, the final LN and the output projection unless it is tied to E_tok.
    double parameter_count() const;
};

// A decoder-only language model (002 "The Big Picture and Takeaways", Decoders (e.g., ChatGPT); the layout of
// nanoGPT / GPT-2):
//   h_0 = POS(E_tok[x])    E_tok[x] + P[:T] with learned, sinusoidal or binary P; E_tok[x] alone;
//                          or [E_tok[x] ; P_K[:T]] with E_tok K narrower (nn/make_positional_encoding.h)
//   h_l = GPTBlock(h_{l-1}),  l = 1..N                        (pre-norm, causal)
//   logits = LN(h_N) W_out,   W_out = E_tok^T when tied
// Trained by next-token cross-entropy; sampled auto-regressively (generate.h).
class GPT : public nn::Module {
public:
    explicit GPT(const GPTConfig& config);
    // ids int64 [B, T], T <= context -> logits [B, T, vocab]
    Tensor forward(const Tensor& ids) const;
    // ids_new [B, t]: the next t tokens after those whose keys and values are
    // in `caches` (one per layer, all of one length). Equals the last t rows of
    // forward() on the whole prefix.
    Tensor forward_cached(const Tensor& ids_new, std::vector<nn::KVCache>& caches) const;
    // Sum over MoE blocks of their load-balancing loss of the last forward;
    // a zero scalar without MoE. The training loss adds it times a coefficient.
    Tensor aux_loss() const;

    GPTConfig config;
    std::shared_ptr<nn::Embedding> tok_embed;
    std::shared_ptr<nn::PositionalEncoding> pos;
    std::shared_ptr<nn::LearnedPositionalEmbedding> learned_pos;  // pos, when the positions are learned
    std::shared_ptr<nn::Dropout> drop;
    std::shared_ptr<nn::ModuleList<GPTBlock>> blocks;
    std::shared_ptr<nn::LayerNorm> norm;
    std::shared_ptr<nn::Linear> head;  // [vocab, D], no bias

private:
    Tensor embed(const Tensor& ids, std::int64_t start) const;
    Tensor logits(const Tensor& h) const { return head->forward(norm->forward(h)); }
};

// Builds a GPT with GPT-2's initialisation: weights N(0, 0.02), biases 0, the
// residual branches' output projections (attention W^O, MLP W_2) N(0, 0.02 /
// sqrt(2 N)) so the residual stream's variance does not grow with depth.
std::shared_ptr<GPT> make_gpt(const GPTConfig& config);

}  // namespace models
