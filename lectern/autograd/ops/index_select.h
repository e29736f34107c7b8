#pragma once
// Gathering rows by index: the embedding lookup (002 "Text Token Embeddings":
// X = [e_i1; ...; e_iT] W_emb is a row selection of W_emb).
#include "lectern/autograd/tensor.h"

namespace autograd {

// `index` is int64 of any shape, each entry in [0, x.size(dim)) (IndexError naming the
// bad entry otherwise); y.shape = x.shape[:dim] + index.shape + x.shape[dim+1:] and
// y[..., i..., ...] = x[..., index[i...], ...]. The backward (a scatter-add) is in
// index_select.cpp.
Tensor index_select(const Tensor& x, std::int64_t dim, const Tensor& index);

}  // namespace autograd
