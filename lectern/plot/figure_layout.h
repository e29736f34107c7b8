#pragma once
// Where a figure's panels go on the page: a grid `columns` wide under the
// title, and, when the panels are line plots naming the same curves and some
// panel has no free place inside for its legend (line_layout.h), one legend
// for them all under the grid, its text the size of the axis labels, so that
// no legend covers data and the names are read once.
#include <vector>

#include "lectern/plot/figure.h"
#include "lectern/plot/line_layout.h"

namespace plot {

struct SharedLegend {
    Rect box{};                  // under the panels, centred
    int columns = 1;             // entries fill rows of this many, left to right then down
    double row = 0, column = 0;  // one entry's height and width
};

struct FigureLayout {
    std::vector<Rect> cells;  // one per panel, in millimetres, y up
    bool shared_legend = false;
    SharedLegend legend;  // when shared_legend: the panels draw none of their own
};

// The figure on a page width_mm x height_mm with characters char_mm tall
// (the title 1.3 times as tall).
FigureLayout figure_layout(const Figure& figure, double width_mm, double height_mm, double char_mm);

}  // namespace plot
