#include "examples/rollout_figure.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "examples/png_file.h"

namespace examples {

void write_rollout_png(const std::string& path, const autograd::Tensor& image, const autograd::Tensor& rollout,
                       int scale) {
    const auto H = static_cast<int>(image.size(0)), W = static_cast<int>(image.size(1));
    const auto grid = static_cast<int>(std::lround(std::sqrt(static_cast<double>(rollout.numel()))));
    std::vector<double> px = image.to_vector(), heat = rollout.to_vector();
    auto [pmin, pmax] = std::minmax_element(px.begin(), px.end());
    double hmax = *std::max_element(heat.begin(), heat.end());
    const int gap = scale, w = 2 * W * scale + gap, h = H * scale;
    std::vector<unsigned char> rgb(static_cast<std::size_t>(w * h * 3), 255);
    auto put = [&](int x, int y, double r, double g, double b) {
        unsigned char* p = &rgb[static_cast<std::size_t>((y * w + x) * 3)];
        p[0] = static_cast<unsigned char>(std::clamp(r, 0.0, 1.0) * 255);
        p[1] = static_cast<unsigned char>(std::clamp(g, 0.0, 1.0) * 255);
        p[2] = static_cast<unsigned char>(std::clamp(b, 0.0, 1.0) * 255);
    };
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < W * scale; ++x) {
            double v = (px[static_cast<std::size_t>((y / scale) * W + x / scale)] - *pmin) / std::max(*pmax - *pmin, 1e-12);
            put(x, y, v, v, v);
            int gy = (y / scale) * grid / H, gx = (x / scale) * grid / W;
            double t = heat[static_cast<std::size_t>(gy * grid + gx)] / std::max(hmax, 1e-12);
            put(W * scale + gap + x, y, 2 * t, 2 * t - 1, 0);  // black -> red -> yellow
        }
    write_png(path, w, h, rgb);
}

}  // namespace examples
