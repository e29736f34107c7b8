#pragma once
// Model FLOPs of one training step, counted analytically from the shapes: only
// the matrix products, as model-FLOP-utilisation figures usually are (the
// elementwise ops, softmax, layer norm, the loss and the optimizer are a small
// share and not counted).
//   A product of [m, k] by [k, n] costs 2 m k n FLOPs (a multiply and an add).
//   Its backward costs two products of the same size: dA = dC B^T, dB = A^T dC.
//   So forward + backward = 3 x the forward's products, less dA where A needs no
//   gradient (the ViT's pixels into the patch projection).
//   A Linear on M tokens of width `in` to `out` is a [M, in] x [in, out] product;
//   attention over (batch, head) is Q K^T and P V, each 2 B Tq Tk d_model summed
//   over the heads (d_k h = d_model). A causal mask is not subtracted: the
//   scores are computed in full and then masked.
#include <cstdint>

namespace benchmarks {

struct TransformerShape {
    std::int64_t layers, d_model, d_ff, vocab, batch, src_len, tgt_len;
};

struct ViTShape {
    std::int64_t image_size, channels, patch, d_model, depth, mlp, classes, batch;
};

double transformer_step_flops(const TransformerShape& s);
double vit_step_flops(const ViTShape& s);

}  // namespace benchmarks
