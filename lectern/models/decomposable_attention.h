#pragma once
// Attention for entailment (004 §15.4.6 eq. 15.46-15.53; the notes' excerpt starts at eq. 15.49,
// and eqs. 15.46-15.48 are the book's, docs/notes_to_code.md; Parikh et al.'s decomposable
// attention, which 004 follows): is the hypothesis b_1..b_n entailed by, contradicted by or
// neutral to the premise a_1..a_m? Each word of one sentence is softly aligned with the words of
// the other, the aligned pairs compared word by word, and the comparisons summed:
//   e_ij    = f(a_i)^T f(b_j)                                   (15.46) alignment scores [B, m, n]
//   beta_i  = sum_j softmax_j(e_ij) b_j                         (15.47) the hypothesis aligned to a_i
//   v_{A,i} = g([a_i, beta_i]) (15.48),   v_A = sum_i v_{A,i}   (15.49)
//   alpha_j = sum_i softmax_i(e_ij) a_i                         (15.50) the premise aligned to b_j
//   v_{B,j} = g([b_j, alpha_j]),  v_B = sum_j v_{B,j}           (15.51, 15.52)
//   y_hat   = h([v_A, v_B])                                     (15.53) logits of the 3 classes
// a_i and b_j are word embeddings of width E; f and g are two layers of width H with a ReLU after
// each, h is Linear-ReLU-Linear (Parikh et al.'s F, G and H). Padding (id `pad`) is masked out of
// both softmaxes and both sums.
//
// Two ablations, neither with an f (examples/experiments/entailment.cpp compares the three):
// Alignment::uniform keeps the word-by-word comparison but not the alignment: e_ij = 0, so beta_i is
// the mean of the hypothesis's words and alpha_j the mean of the premise's, each word compared with
// the other sentence as a whole. Alignment::none compares nothing: each sentence is encoded on its
// own, v_A = sum_i g(a_i), v_B = sum_j g(b_j) (g of width E -> H), and y_hat = h([v_A, v_B]), so the
// classifier must tell from two sums whether the words of one are among those of the other.
#include <cstdint>
#include <memory>

#include "lectern/nn/embedding.h"
#include "lectern/nn/linear.h"

namespace models {

using autograd::Tensor;

enum class Alignment { soft, uniform, none };

struct DecomposableAttentionConfig {
    std::int64_t vocab = 0;
    std::int64_t d_embed = 32;  // E, the width of a_i and b_j
    std::int64_t hidden = 64;   // H, the width of f, g and h's hidden layer
    std::int64_t classes = 3;   // entailment, contradiction, neutral (004's h: R^{2H} -> R^3)
    std::int64_t pad = 0;       // the padding token
    Alignment alignment = Alignment::soft;
    std::uint64_t seed = 0;
};

// The soft alignment of one forward pass, for figures and tests.
struct AlignmentWeights {
    Tensor to_hypothesis;  // softmax_j(e_ij) [B, m, n]: row i weights the b_j that make beta_i
    Tensor to_premise;     // softmax_i(e_ij) [B, n, m]: row j weights the a_i that make alpha_j
};

class DecomposableAttention : public nn::Module {
public:
    explicit DecomposableAttention(const DecomposableAttentionConfig& config);

    // premise int64 [B, m], hypothesis int64 [B, n], `pad` after a shorter sentence -> logits
    // [B, classes]. With `weights` the alignment is written there (not for Alignment::none).
    // ShapeError for ids of other shapes or batches, ValueError for a sentence all padding.
    Tensor forward(const Tensor& premise, const Tensor& hypothesis, AlignmentWeights* weights = nullptr) const;
    Tensor operator()(const Tensor& premise, const Tensor& hypothesis) const { return forward(premise, hypothesis); }

    DecomposableAttentionConfig config;
    std::shared_ptr<nn::Embedding> embed;  // [vocab, E], shared by premise and hypothesis
    std::shared_ptr<nn::Linear> f_1, f_2;  // f: E -> H -> H (Alignment::soft only)
    std::shared_ptr<nn::Linear> g_1, g_2;  // g: 2E (E without alignment) -> H -> H
    std::shared_ptr<nn::Linear> h_1, h_2;  // h: 2H -> H -> classes
};

}  // namespace models
