#include "lectern/plot/raster.h"

#include <algorithm>
#include <cmath>

#include <png.h>

namespace plot {

namespace {

struct Stop {
    double at, r, g, b;
};

std::vector<Stop> stops(Palette palette) {
    switch (palette) {
        case Palette::sequential:
            return {{0, 1, 1, 1}, {0.5, 0.42, 0.68, 0.84}, {1, 0.03, 0.19, 0.42}};
        case Palette::diverging:
            return {{0, 0.02, 0.19, 0.38}, {0.5, 1, 1, 1}, {1, 0.40, 0.0, 0.12}};
        case Palette::grey:
            return {{0, 0, 0, 0}, {1, 1, 1, 1}};
        case Palette::spotlight:
            return {{0, 0.10, 0.12, 0.22}, {0.5, 0.62, 0.50, 0.45}, {1, 1, 0.96, 0.78}};
    }
    return {};
}

std::uint8_t byte(double v) { return static_cast<std::uint8_t>(std::lround(255 * std::clamp(v, 0.0, 1.0))); }

double fraction(const ColourScale& s, double v) { return (v - s.min) / (s.max - s.min); }

}  // namespace

Rgb palette_colour(Palette palette, double t) {
    t = std::clamp(t, 0.0, 1.0);
    const std::vector<Stop> s = stops(palette);
    std::size_t i = 1;
    while (i + 1 < s.size() && t > s[i].at) ++i;
    const double u = (t - s[i - 1].at) / (s[i].at - s[i - 1].at);
    return {byte(s[i - 1].r + u * (s[i].r - s[i - 1].r)), byte(s[i - 1].g + u * (s[i].g - s[i - 1].g)),
            byte(s[i - 1].b + u * (s[i].b - s[i - 1].b))};
}

Raster heat_map_raster(const HeatMap& m) {
    auto cell = [&](std::int64_t r, std::int64_t c) {
        const auto at = static_cast<std::size_t>(r * m.cols + c);
        return !m.masked.empty() && m.masked[at] ? kMaskedGrey
                                                 : palette_colour(m.scale.palette, fraction(m.scale, m.values[at]));
    };
    Raster out;
    if (m.under.pixels.empty()) {
        out.rows = m.rows, out.cols = m.cols;
        for (std::int64_t r = 0; r < m.rows; ++r)
            for (std::int64_t c = 0; c < m.cols; ++c) out.pixels.push_back(cell(r, c));
        return out;
    }
    const Picture& p = m.under;
    const auto [lo, hi] = std::minmax_element(p.pixels.begin(), p.pixels.end());
    out.rows = p.rows, out.cols = p.cols;
    for (std::int64_t r = 0; r < p.rows; ++r)
        for (std::int64_t c = 0; c < p.cols; ++c) {
            const double g = *hi > *lo ? (p.pixels[static_cast<std::size_t>(r * p.cols + c)] - *lo) / (*hi - *lo) : 1.0;
            const double grey = 0.25 + 0.75 * g;
            const Rgb tint = cell(r * m.rows / p.rows, c * m.cols / p.cols);
            out.pixels.push_back({static_cast<std::uint8_t>(std::lround(grey * tint.r)),
                                  static_cast<std::uint8_t>(std::lround(grey * tint.g)),
                                  static_cast<std::uint8_t>(std::lround(grey * tint.b))});
        }
    return out;
}

Raster colour_bar_raster(const ColourScale& scale, int steps) {
    Raster out{steps, 1, {}};
    for (int i = steps - 1; i >= 0; --i) out.pixels.push_back(palette_colour(scale.palette, (i + 0.5) / steps));
    return out;
}

std::string png_file(const Raster& raster) {
    std::string bytes;
    std::vector<Rgb> row(static_cast<std::size_t>(raster.cols));  // made before setjmp: a longjmp back leaves it whole
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    if (png == nullptr || info == nullptr || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        throw Error("cannot encode a heat map's cells as PNG");
    }
    png_set_write_fn(
        png, &bytes,
        [](png_structp s, png_bytep data, png_size_t n) {
            static_cast<std::string*>(png_get_io_ptr(s))->append(reinterpret_cast<const char*>(data), n);
        },
        nullptr);
    png_set_IHDR(png, info, static_cast<png_uint_32>(raster.cols), static_cast<png_uint_32>(raster.rows), 8,
                 PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 9);
    png_write_info(png, info);
    for (std::int64_t r = 0; r < raster.rows; ++r) {
        std::copy(raster.pixels.begin() + r * raster.cols, raster.pixels.begin() + (r + 1) * raster.cols, row.begin());
        png_write_row(png, reinterpret_cast<png_const_bytep>(row.data()));
    }
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    return bytes;
}

}  // namespace plot
