#pragma once
// Where a line plot's parts go on the page, computed before anything is
// drawn: the axes' ranges and ticks, the frame, every point and line in page
// millimetres, and the legend's box. The legend goes in the first of the
// frame's corners, then its edges' middles, where its box covers no drawn
// point and crosses no drawn line; when every place covers something, the
// frame narrows and the legend stands beside it, or (a legend wider than 40%
// of the frame) the frame shortens by up to half and the legend stands under
// the x axis; only a panel too small for either lets its legend cover data.
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
// left edges), that covers nothing drawn; none when each does.
std::optional<Rect> free_place(const Rect& frame, double w, double h, double gap, const Drawn& drawn);

struct LineLayout {
    Rect frame;                    // the axes' box
    double x0, x1, y0, y1;         // the world at the frame's edges (log10 on a log axis)
    std::vector<Tick> x_ticks, y_ticks;  // on log axes only (PLplot labels linear ones)
    Drawn drawn;                   // the curves, their markers and error bars, in the frame
    bool legend = false;           // drawn when there is more than one curve
    Rect legend_box{};             // where, inside the frame or beside it
    double legend_row = 0;         // one entry's height
};

// The panel `p` laid out in `cell` for characters char_mm tall: margins in
// characters, so the same layout serves any page size.
LineLayout line_layout(const LinePlot& p, const Rect& cell, double char_mm);

// A label's width in millimetres, estimated from its characters (PLplot reports none before drawing).
double text_width(const std::string& text, double char_mm);

}  // namespace plot
