#include "lectern/models/patch_embedding.h"

#include <fmt/format.h>

#include "lectern/nn/init.h"

namespace models {

using namespace autograd;

Tensor extract_patches(const Tensor& images, std::int64_t P) {
    check_floating("extract_patches", images);
    if (images.dim() != 4 || P <= 0 || images.size(2) % P != 0 || images.size(3) % P != 0)
        throw ShapeError(fmt::format("extract_patches: images {} must be [B, C, H, W] with H and W multiples of {}",
                                     shape_str(images.shape()), P));
    const std::int64_t B = images.size(0), C = images.size(1), H = images.size(2), W = images.size(3);
    // [B, C, H/P, P, W/P, P] -> [B, H/P, W/P, P, P, C] -> [B, N, P*P*C]
    Tensor x = reshape(images, {B, C, H / P, P, W / P, P});
    x = permute(x, {0, 2, 4, 3, 5, 1});
    return reshape(x, {B, (H / P) * (W / P), P * P * C});
}

PatchEmbedding::PatchEmbedding(std::int64_t size, std::int64_t c, std::int64_t p, std::int64_t d, Generator& gen,
                               bool with_class_token)
    : image_size(size), channels(c), patch(p) {
    if (p <= 0 || size % p != 0)
        throw ValueError(fmt::format("PatchEmbedding: patch {} must divide the image size {}", p, size));
    n_patches = (size / p) * (size / p);
    // Drawn from `gen` in the order E, x_class, E_pos, and registered in the
    // order x_class, E_pos, E: both as before E_pos became a module, so a seed
    // gives the same model and the parameters keep their indices.
    auto e = std::make_shared<nn::Linear>(p * p * c, d, true, gen);
    if (with_class_token) {
        class_token = register_parameter("class_token", zeros({1, 1, d}));
        nn::init::normal_(class_token, 0, 0.02, gen);
    }
    const std::int64_t T = n_patches + (with_class_token ? 1 : 0);
    position = register_module("position", std::make_shared<nn::LearnedPositionalEmbedding>(T, d, gen));
    proj = register_module("proj", e);
}

Tensor PatchEmbedding::forward(const Tensor& images) const {
    if (images.dim() != 4 || images.size(1) != channels || images.size(2) != image_size || images.size(3) != image_size)
        throw ShapeError(fmt::format("PatchEmbedding: images {} must be [B, {}, {}, {}]", shape_str(images.shape()),
                                     channels, image_size, image_size));
    Tensor tokens = (*proj)(extract_patches(images, patch));  // [B, N, D]: x_p^i E
    if (!class_token.defined()) return (*position)(tokens);   // + E_pos, no [CLASS]
    const std::int64_t B = images.size(0), D = class_token.size(2);
    Tensor cls = broadcast_to(class_token, {B, 1, D});  // x_class for every image
    return (*position)(concat({cls, tokens}, 1));       // + E_pos
}

}  // namespace models
