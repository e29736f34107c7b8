#pragma once
// The last touches to the SVG PLplot writes: each heat map's cells, which it
// would write as one polygon apiece, go in as one embedded PNG, each cell a
// block of pixels (drawn before everything else, so frames and labels lie
// over it), and its text as UTF-8 rather than a character reference per letter.
#include <string>
#include <vector>

#include "lectern/plot/raster.h"

namespace plot {

struct PlacedRaster {
    Raster raster;
    double x0, x1, y0, y1;  // where on the page, as fractions of it, y up
};

std::string finish_svg(const std::string& svg, const std::vector<PlacedRaster>& rasters, int width, int height);

}  // namespace plot
