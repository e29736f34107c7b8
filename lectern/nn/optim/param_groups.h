#pragma once
// The usual split of a model's parameters for weight decay (nanoGPT's configure_optimizers,
// minGPT, timm): decay the tensors of two or more dims, not the vectors.
#include "lectern/nn/module.h"
#include "lectern/nn/optim/optimizer.h"

namespace nn::optim {

// `model`'s parameters in groups of weight decay `weight_decay` (those of dim >= 2: the
// weight matrices, the embedding tables of tokens and of learned positions, the ViT's
// [CLASS] token [1, 1, D]) and 0 (those of dim < 2: biases, LayerNorm's gamma and beta),
// nanoGPT's rule. Embeddings are decayed, as nanoGPT decays wte and wpe. The groups are
// the model's order cut into runs of one kind, so the optimizer numbers the parameters as
// one over model.parameters() would, and a checkpoint's state "exp_avg.i" stays parameter i.
std::vector<ParamGroup> weight_decay_groups(const Module& model, double weight_decay);

}  // namespace nn::optim
