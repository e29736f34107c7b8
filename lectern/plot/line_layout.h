#pragma once
// Where a line plot's parts go on the page, computed before anything is
// drawn: the axes' ranges and ticks, the frame, every point and line in page
// millimetres, and the legend's box. The legend goes in the first of the
// frame's corners, then its edges' middles, then any height along its sides,
// where its box covers no drawn point and crosses no drawn line; when every
// place covers something, the frame narrows and the legend stands beside it,
// or (a legend wider than 40% of the frame) the frame shortens by up to half
// and the legend stands under the x axis in as many columns as the cell
// holds; a panel too small for either gives up what leaves its frame the
// larger, and no legend covers data. (A figure's panels that name the same
// curves share one legend instead: figure_layout.h.)
#include <optional>
#include <vector>

#include "lectern/plot/figure.h"
#include "lectern/plot/log_axis.h"

namespace plot {

struct Point {
    double x, y;  // millimetres on the page, y up
};

struct Rect {
    double x0, x1, y0, y1;  // millimetres on the page, y up
};

// What a panel draws: polylines (curves, error bars) and markers of a radius.
struct Drawn {
    std::vector<std::vector<Point>> lines;
    std::vector<Point> markers;
    double marker_radius = 0;
};

// Whether `box` holds a marker (within its radius) or meets a line.
bool covers(const Rect& box, const Drawn& drawn);

// The first place for a w x h box, `gap` inside the frame (top right, top left,
// bottom right, bottom left, then the middles of the top, bottom, right and
// left edges, then every height down the right, the left and the middle), that
// covers nothing drawn; none when each does.
std::optional<Rect> free_place(const Rect& frame, double w, double h, double gap, const Drawn& drawn);

struct LineLayout {
    Rect frame;                          // the axes' box
    double x0, x1, y0, y1;               // the world at the frame's edges (log10 on a log axis)
    std::vector<Tick> x_ticks, y_ticks;  // on log axes only (PLplot labels linear ones)
    Drawn drawn;                         // the curves, their markers and error bars, in the frame
    bool legend = false;                 // drawn when there is more than one curve and no shared legend names them
    Rect legend_box{};                   // where, inside the frame or beside or under it
    int legend_columns = 1;              // its entries fill rows of this many, left to right then down
    double legend_row = 0;               // one entry's height
    double legend_column = 0;            // one entry's width
};

// The panel `p` laid out in `cell` for characters char_mm tall: margins in
// characters, so the same layout serves any page size. With own_legend false
// the panel draws no legend (a legend shared by the figure names its curves).
LineLayout line_layout(const LinePlot& p, const Rect& cell, double char_mm, bool own_legend = true);

// Whether p's legend has a free place inside its frame in `cell`.
bool legend_fits_inside(const LinePlot& p, const Rect& cell, double char_mm);

// A legend's entry (its line or mark, then the name) and row, in millimetres.
double legend_entry_width(const LinePlot& p, double char_mm);
double legend_row_height(double char_mm);

// Entries in rows of `columns`: the box's height, a margin above and below included.
double legend_height(std::size_t entries, int columns, double char_mm);

// A label's width in millimetres, estimated from its characters (PLplot reports none before drawing).
// `text` is PLplot's: "##" is one '#', "#u" and "#d" draw nothing; any text ends.
double text_width(const std::string& text, double char_mm);

}  // namespace plot
