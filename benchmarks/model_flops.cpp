#include "benchmarks/model_flops.h"

namespace benchmarks {

namespace {

double linear(std::int64_t tokens, std::int64_t in, std::int64_t out) {
    return 2.0 * static_cast<double>(tokens) * static_cast<double>(in) * static_cast<double>(out);
}

// Q K^T and P V over every (batch, head): 2 * (2 B Tq Tk d_model).
double attention_products(std::int64_t batch, std::int64_t tq, std::int64_t tk, std::int64_t d_model) {
    return 2 * 2.0 * static_cast<double>(batch) * static_cast<double>(tq) * static_cast<double>(tk) *
           static_cast<double>(d_model);
}

}  // namespace

double transformer_step_flops(const TransformerShape& s) {
    const std::int64_t D = s.d_model, S = s.batch * s.src_len, T = s.batch * s.tgt_len;
    const double encoder_layer = 4 * linear(S, D, D) + attention_products(s.batch, s.src_len, s.src_len, D) +
                                 linear(S, D, s.d_ff) + linear(S, s.d_ff, D);
    const double decoder_layer = 4 * linear(T, D, D) + attention_products(s.batch, s.tgt_len, s.tgt_len, D)  // self
                                 + 2 * linear(T, D, D) + 2 * linear(S, D, D)  // cross: Q, O on the target; K, V on memory
                                 + attention_products(s.batch, s.tgt_len, s.src_len, D)  //
                                 + linear(T, D, s.d_ff) + linear(T, s.d_ff, D);
    const double forward = static_cast<double>(s.layers) * (encoder_layer + decoder_layer) + linear(T, D, s.vocab);
    return 3 * forward;  // the embeddings are lookups; every product's input needs a gradient
}

double vit_step_flops(const ViTShape& s) {
    const std::int64_t grid = s.image_size / s.patch, patches = grid * grid, N = patches + 1, D = s.d_model;
    const std::int64_t tokens = s.batch * N;
    const double patch_projection = linear(s.batch * patches, s.patch * s.patch * s.channels, D);
    const double layer = 4 * linear(tokens, D, D) + attention_products(s.batch, N, N, D) + linear(tokens, D, s.mlp) +
                         linear(tokens, s.mlp, D);
    const double forward = patch_projection + static_cast<double>(s.depth) * layer + linear(s.batch, D, s.classes);
    return 3 * forward - patch_projection;  // no gradient for the pixels
}

}  // namespace benchmarks
