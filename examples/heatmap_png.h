#pragma once
// A matrix as a heat map PNG (stb_image_write), for the figures: each value a
// `scale` x `scale` block, blue for -1 (or the most negative value), white for
// 0, red for +1 (or the largest), so the sign and the size of a value show.
#include <string>

#include "autograd/autograd.h"

namespace examples {

// m [rows, cols]; throws std::runtime_error if the file cannot be written.
void write_heatmap_png(const std::string& path, const autograd::Tensor& m, int scale = 4);

}  // namespace examples
