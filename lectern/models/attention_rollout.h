#pragma once
#include "lectern/models/vit.h"

namespace models {

// Attention rollout (002 "What do ViTs learn: attention": "the attention
// weights are averaged across all heads and the resulting weight matrices of
// all layers are multiplied together"; the identity for the residual path and
// the row renormalisation are Abnar & Zuidema's, 2020). With A_l the attention
// of layer l averaged over heads,
//   R = prod_l norm(A_l + I),  norm(.) rescaling each row to sum to 1,
// taken from the last forward pass of `model`. The [CLASS] row of R, without
// its own column, is how much each patch flowed into the class token:
// returns [B, N] (rows sum to at most 1), in patch order (row by row). A ViT
// that pools the mean of its tokens has no [CLASS] row; its output is the mean
// of all N rows, so the rollout is their mean, (1/N) sum_i R_i (rows sum to 1).
Tensor attention_rollout(const ViT& model);
// The same from a list of per-layer attentions [B, H, T, T] (first layer first).
Tensor attention_rollout(const std::vector<Tensor>& attentions, Pooling pooling = Pooling::cls);

}  // namespace models
