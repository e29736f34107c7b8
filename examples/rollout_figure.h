#pragma once
// A picture of what a ViT looked at: the input image and its attention-rollout
// map side by side, each scaled up, written as a PNG (stb_image_write).
#include <string>

#include "autograd/autograd.h"

namespace examples {

// image: [H, W] pixel values (any range, shown min..max as grey);
// rollout: [N] patch weights in row order for a (H/P) x (W/P) grid, shown as a
// heat map (black -> red -> yellow). Throws std::runtime_error if the file
// cannot be written.
void write_rollout_png(const std::string& path, const autograd::Tensor& image, const autograd::Tensor& rollout,
                       int scale = 8);

}  // namespace examples
