#pragma once
// Pre-training a text classifier's encoder on unlabelled text as BERT does (a
// masked language model; not in the notes): some tokens of a text are hidden
// (most replaced by a [MASK] id), the encoder reads the text, and a head
// predicts each hidden token from the encoder's output at its position:
//   h_N    = Encoder(h_0, padding mask)          (TextClassifier::encode)
//   logits = h_N^t W_pred^T + b_pred             at each chosen position t
// The classifier is shared, not copied: what pre-training learns is what the
// classifier then starts from. The program chooses and masks the tokens.
#include <cstdint>
#include <memory>
#include <utility>

#include "lectern/models/text_classifier.h"
#include "lectern/nn/linear.h"

namespace models {

class MaskedLanguageModel : public nn::Module {
public:
    // The head W_pred [vocab, D], b_pred [vocab] as nn::Linear initialises
    // them, from a generator seeded with `seed`.
    MaskedLanguageModel(std::shared_ptr<TextClassifier> classifier, std::uint64_t seed);

    // ids int64 [B, T] as TextClassifier::forward reads them; `positions`
    // int64 [M], flat indices b T + t of the tokens to predict -> logits
    // [M, vocab]. IndexError for a position outside [0, B T).
    Tensor forward(const Tensor& ids, const Tensor& positions) const;

    // Pre-training's loss on ids [B, T] and targets int64 [B, T]: the mean
    // cross-entropy of the predictions at the M positions whose target is a
    // token (-100 elsewhere: not chosen), and M. ValueError when none is chosen.
    std::pair<Tensor, std::int64_t> loss(const Tensor& ids, const Tensor& targets) const;

    std::shared_ptr<TextClassifier> classifier;
    std::shared_ptr<nn::Linear> predict;
};

}  // namespace models
