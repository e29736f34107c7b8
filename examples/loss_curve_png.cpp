#include "examples/loss_curve_png.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "examples/png_file.h"

namespace examples {

std::string write_loss_curve_png(const std::string& path, const LossCurve& curve, int width, int height) {
    double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
    for (const auto* series : {&curve.train, &curve.eval})
        for (auto [x, y] : *series)
            if (y > 0 && std::isfinite(y)) x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
    if (x0 > x1) throw std::runtime_error("loss curve: no positive, finite loss to draw");
    const double ly0 = std::floor(std::log10(y0)), ly1 = std::max(std::ceil(std::log10(y1)), ly0 + 1);
    const int margin = 20, w = width, h = height;
    std::vector<unsigned char> rgb(static_cast<std::size_t>(w) * h * 3, 255);
    auto put = [&](int x, int y, int r, int g, int b) {
        if (x < 0 || y < 0 || x >= w || y >= h) return;
        unsigned char* p = &rgb[(static_cast<std::size_t>(y) * w + x) * 3];
        p[0] = static_cast<unsigned char>(r), p[1] = static_cast<unsigned char>(g), p[2] = static_cast<unsigned char>(b);
    };
    auto px = [&](double x) { return margin + static_cast<int>(std::lround((x - x0) / std::max(x1 - x0, 1e-12) * (w - 2 * margin))); };
    auto py = [&](double y) { return h - margin - static_cast<int>(std::lround((std::log10(y) - ly0) / (ly1 - ly0) * (h - 2 * margin))); };
    for (double d = ly0; d <= ly1; ++d)  // a grey line per power of ten
        for (int x = margin; x < w - margin; ++x) put(x, py(std::pow(10, d)), 200, 200, 200);
    for (int x = margin; x < w - margin; ++x) put(x, h - margin, 0, 0, 0);  // axes
    for (int y = margin; y <= h - margin; ++y) put(margin, y, 0, 0, 0);
    for (std::size_t i = 1; i < curve.train.size(); ++i) {  // the training loss, segment by segment
        auto [xa, ya] = curve.train[i - 1];
        auto [xb, yb] = curve.train[i];
        if (!(ya > 0 && yb > 0)) continue;
        const int steps = std::max({std::abs(px(xb) - px(xa)), std::abs(py(yb) - py(ya)), 1});
        for (int s = 0; s <= steps; ++s) {
            double t = static_cast<double>(s) / steps;
            put(static_cast<int>(std::lround(px(xa) + t * (px(xb) - px(xa)))),
                static_cast<int>(std::lround(py(ya) + t * (py(yb) - py(ya)))), 40, 90, 220);
        }
    }
    for (auto [x, y] : curve.eval)  // the evaluation loss, 5x5 squares
        if (y > 0)
            for (int dy = -2; dy <= 2; ++dy)
                for (int dx = -2; dx <= 2; ++dx) put(px(x) + dx, py(y) + dy, 220, 30, 30);
    write_png(path, w, h, rgb);
    return fmt::format("steps {:g}..{:g} across, loss {:.2g}..{:.2g} down a log scale (grey lines at 1e{:g}..1e{:g}); "
                       "blue: training, red: evaluation", x0, x1, y0, y1, ly0, ly1);
}

}  // namespace examples
