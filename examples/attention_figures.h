#pragma once
// What a trained copy-task Transformer attends to: for one held-out sequence,
// every layer's encoder self-attention, decoder self-attention and
// cross-attention, each as a PNG with its heads side by side (rows: queries,
// columns: keys; white 0, red 1). A model that copies shows the diagonal in
// its cross-attention: output position t reads input position t + 1 (the
// decoder's input is shifted right by the start symbol).
#include <string>
#include <vector>

#include "models/transformer.h"

namespace examples {

// Runs the model once on (src, tgt) and writes DIR/{encoder_self,decoder_self,cross}_layer<l>.png;
// returns the paths written.
std::vector<std::string> write_attention_figures(models::Transformer& model, const autograd::Tensor& src,
                                                 const autograd::Tensor& tgt, std::int64_t pad, const std::string& dir);

}  // namespace examples
