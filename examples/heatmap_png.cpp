#include "examples/heatmap_png.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "examples/png_file.h"

namespace examples {

void write_heatmap_png(const std::string& path, const autograd::Tensor& m, int scale) {
    if (m.dim() != 2) throw std::runtime_error(fmt::format("heat map of a {}-D tensor: it needs [rows, cols]", m.dim()));
    const auto rows = static_cast<int>(m.size(0)), cols = static_cast<int>(m.size(1));
    std::vector<double> v = m.to_vector();
    double extent = 1e-12;
    for (double x : v) extent = std::max(extent, std::abs(x));
    const int w = cols * scale, h = rows * scale;
    std::vector<unsigned char> rgb(static_cast<std::size_t>(w) * h * 3);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            double t = v[static_cast<std::size_t>((y / scale) * cols + x / scale)] / extent;  // in [-1, 1]
            double r = t < 0 ? 1 + t : 1, g = 1 - std::abs(t), b = t > 0 ? 1 - t : 1;     // blue - white - red
            unsigned char* p = &rgb[(static_cast<std::size_t>(y) * w + x) * 3];
            p[0] = static_cast<unsigned char>(std::lround(255 * r));
            p[1] = static_cast<unsigned char>(std::lround(255 * g));
            p[2] = static_cast<unsigned char>(std::lround(255 * b));
        }
    write_png(path, w, h, rgb);
}

}  // namespace examples
