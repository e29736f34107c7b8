#pragma once
// A heat map's cells as colours: what the PNG fills cell by cell and what an
// SVG embeds as one small PNG picture (a cell a pixel), so an SVG of many
// cells stays about as small as its PNG.
#include <cstdint>
#include <string>
#include <vector>

#include "lectern/plot/figure.h"

namespace plot {

struct Rgb {
    std::uint8_t r, g, b;
    bool operator==(const Rgb&) const = default;
};

struct Raster {
    std::int64_t rows = 0, cols = 0;
    std::vector<Rgb> pixels;  // row-major, row 0 at the top
};

// The palette's colour at t in 0..1 (clamped).
Rgb palette_colour(Palette palette, double t);

// The grey of a masked cell: neither a weight of 0 (white) nor of 1.
inline constexpr Rgb kMaskedGrey{189, 189, 189};

// One pixel per cell; with a picture under, one per picture pixel, each its
// grey (black lifted to a quarter, so a dark background still shows its cell's
// colour) times the colour of the cell it lies in.
Raster heat_map_raster(const HeatMap& m);

// The colour bar: `steps` cells, min at the bottom; over a picture, the colour
// a white pixel takes.
Raster colour_bar_raster(const ColourScale& scale, int steps);

// The raster as the bytes of a PNG file (libpng).
std::string png_file(const Raster& raster);

}  // namespace plot
