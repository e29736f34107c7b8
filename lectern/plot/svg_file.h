#pragma once
// The last touches to the SVG PLplot writes: each heat map's cells, which it
// would write as one polygon apiece, go in as one embedded PNG, each cell a
// block of pixels (drawn before everything else, so frames and labels lie
// over it), its text as UTF-8 rather than a character reference per letter,
// and a dashed line as one polyline with a dash array, not an element per dash.
#include <map>
#include <string>
#include <vector>

#include "lectern/plot/raster.h"

namespace plot {

struct PlacedRaster {
    Raster raster;
    double x0, x1, y0, y1;  // where on the page, as fractions of it, y up
};

// dashed: stroke colour ("#1F77B4") -> SVG dash array, for the lines of that colour.
std::string finish_svg(const std::string& svg, const std::vector<PlacedRaster>& rasters,
                       const std::map<std::string, std::string>& dashed, int width, int height);

}  // namespace plot
