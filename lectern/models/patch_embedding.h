#pragma once
#include <memory>

#include "lectern/nn/learned_positional_embedding.h"
#include "lectern/nn/linear.h"

namespace models {

using autograd::Tensor;

// Split [B, C, H, W] images into N = (H/P)(W/P) patches of P x P pixels and
// flatten each into a row of P*P*C values (002 "Image Patch Embeddings").
// Patches are numbered row by row; inside a patch the values run over pixel
// row, then pixel column, then channel: value (py * P + px) * C + c of patch
// (r / P) * (W / P) + c / P holds pixel (r, c) = (pr * P + py, pc * P + px).
// Differentiable (a reshape and a permute). ShapeError if P does not divide H and W.
Tensor extract_patches(const Tensor& images, std::int64_t patch);

// The ViT input (002, ViT equations):
//   z_0 = [x_class; x_p^1 E; x_p^2 E; ...; x_p^N E] + E_pos,
//   E in R^{(P^2 C) x D}, E_pos in R^{(N+1) x D},
// with a learned [CLASS] token x_class (004 §15.5.6: "prepended with a special
// [CLASS] embedding x_0"). Without it (with_class_token false, for a ViT that
// pools the mean of its tokens) z_0 = [x_p^1 E; ...; x_p^N E] + E_pos, E_pos in R^{N x D}.
class PatchEmbedding : public nn::Module {
public:
    PatchEmbedding(std::int64_t image_size, std::int64_t channels, std::int64_t patch, std::int64_t d_model,
                   autograd::Generator& gen, bool with_class_token = true);
    Tensor forward(const Tensor& images) const;  // [B, C, H, W] -> z_0 [B, N + 1, D] (no [CLASS]: [B, N, D])
    Tensor operator()(const Tensor& images) const { return forward(images); }

    std::int64_t image_size, channels, patch, n_patches;
    Tensor class_token;                                        // x_class [1, 1, D]; undefined without one
    std::shared_ptr<nn::LearnedPositionalEmbedding> position;  // E_pos [N + 1, D] or [N, D] ("position.weight")
    std::shared_ptr<nn::Linear> proj;                          // E (with a bias)
};

}  // namespace models
