#include "lectern/plot/line_layout.h"

#include <algorithm>
#include <cmath>

namespace plot {

namespace {

// a character's mean width, in PLplot's character heights (DejaVu Sans, as
// drawn by the cairo and SVG devices: about 0.55 em, the height 0.75 em)
constexpr double kCharWidth = 0.75;

// Whether the segment a-b meets the box (Liang-Barsky clipping).
bool meets(const Rect& box, Point a, Point b) {
    double t0 = 0, t1 = 1;
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double p[] = {-dx, dx, -dy, dy}, q[] = {a.x - box.x0, box.x1 - a.x, a.y - box.y0, box.y1 - a.y};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0) return false;
        } else if (const double t = q[i] / p[i]; p[i] < 0) {
            t0 = std::max(t0, t);
        } else {
            t1 = std::min(t1, t);
        }
    }
    return t0 <= t1;
}

// The linear axis: 4% of the range each side, or a unit around a single value.
void pad_linear(double& lo, double& hi) {
    if (hi - lo < 1e-12 * std::max(1.0, std::abs(hi))) {
        lo -= std::max(1.0, std::abs(lo) * 0.1), hi += std::max(1.0, std::abs(hi) * 0.1);
    } else {
        const double pad = 0.04 * (hi - lo);
        lo -= pad, hi += pad;
    }
}

}  // namespace

double text_width(const std::string& text, double char_mm) {
    double glyphs = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text.compare(i, 2, "##") == 0) {
            ++i;  // an escaped '#': one character
            ++glyphs;
        } else if (text[i] == '#' && i + 1 < text.size() && (text[i + 1] == 'u' || text[i + 1] == 'd')) {
            ++i;  // a super- or subscript switch draws nothing
        } else if (const std::size_t close = text.find(')', i);
                   text.compare(i, 2, "#(") == 0 && close != std::string::npos) {
            i = close;  // a glyph by number: one character
            ++glyphs;
        } else if (text.compare(i, 2, "×") == 0) {
            ++i;  // the "x" of a log axis's 2×10^6, set with space around it: as wide as two digits
            glyphs += 2;
        } else if ((text[i] & 0xC0) != 0x80) {
            ++glyphs;
        }
    }
    return glyphs * kCharWidth * char_mm;
}

bool covers(const Rect& box, const Drawn& drawn) {
    const double r = drawn.marker_radius;
    for (const Point& m : drawn.markers)
        if (m.x >= box.x0 - r && m.x <= box.x1 + r && m.y >= box.y0 - r && m.y <= box.y1 + r) return true;
    for (const auto& line : drawn.lines) {
        if (line.size() == 1 && meets(box, line[0], line[0])) return true;
        for (std::size_t i = 1; i < line.size(); ++i)
            if (meets(box, line[i - 1], line[i])) return true;
    }
    return false;
}

namespace {

// The candidate places, in order of preference: the corners, the edges' middles, then every height
// along the right, left and middle.
std::vector<Rect> places(const Rect& frame, double w, double h, double gap) {
    const double left = frame.x0 + gap, right = frame.x1 - gap - w, centre = (frame.x0 + frame.x1 - w) / 2;
    const double top = frame.y1 - gap - h, bottom = frame.y0 + gap, middle = (frame.y0 + frame.y1 - h) / 2;
    if (right < left || top < bottom) return {};  // the frame is smaller than the box
    std::vector<Rect> out;
    for (const Point& at : {Point{right, top}, Point{left, top}, Point{right, bottom}, Point{left, bottom},
                            Point{centre, top}, Point{centre, bottom}, Point{right, middle}, Point{left, middle}})
        out.push_back({at.x, at.x + w, at.y, at.y + h});
    // then down the right, left and centre, a quarter of the box at a time: a gap between curves
    const double step = std::max(h / 4, 0.01 * (top - bottom + h));
    for (const double x : {right, left, centre})
        for (double y = top - step; y > bottom; y -= step) out.push_back({x, x + w, y, y + h});
    return out;
}

}  // namespace

double legend_entry_width(const LinePlot& p, double char_mm) {
    double text = 0;
    for (const Curve& c : p.curves) text = std::max(text, text_width(c.name, char_mm));
    const double cw = 0.62 * char_mm;
    return 4.6 * cw + text + 1.0 * cw;  // the line or mark, the name, a margin
}

double legend_row_height(double char_mm) { return 1.5 * char_mm; }

double legend_height(std::size_t entries, int columns, double char_mm) {
    const std::size_t rows = (entries + static_cast<std::size_t>(columns) - 1) / static_cast<std::size_t>(columns);
    return legend_row_height(char_mm) * static_cast<double>(rows) + 0.5 * char_mm;
}

std::optional<Rect> free_place(const Rect& frame, double w, double h, double gap, const Drawn& drawn) {
    for (const Rect& box : places(frame, w, h, gap))
        if (!covers(box, drawn)) return box;
    return std::nullopt;
}

namespace {

// The curves, their markers and error bars, projected into the layout's frame.
Drawn project(const LinePlot& p, const LineLayout& l, double char_mm) {
    auto fx = [&](double x) { return p.log_x ? std::log10(x) : x; };
    auto fy = [&](double y) { return p.log_y ? std::log10(y) : y; };
    const Rect& f = l.frame;
    Drawn d;
    d.marker_radius = 0.6 * char_mm;  // the largest mark, a hollow square at 1.2 times the text
    auto at = [&](double x, double y) {
        return Point{f.x0 + (x - l.x0) / (l.x1 - l.x0) * (f.x1 - f.x0),
                     f.y0 + (y - l.y0) / (l.y1 - l.y0) * (f.y1 - f.y0)};
    };
    for (const Curve& c : p.curves) {
        std::vector<Point> line;
        for (std::size_t i = 0; i < c.x.size(); ++i) {
            const Point pt = at(fx(c.x[i]), fy(c.y[i]));
            if (c.markers) d.markers.push_back(pt);
            else line.push_back(pt);
            if (!c.error.empty() && c.error[i] != 0) {
                const double e = std::abs(c.error[i]);
                const double lo = c.y[i] - e > 0 || !p.log_y ? fy(c.y[i] - e) : l.y0;
                d.lines.push_back({at(fx(c.x[i]), lo), at(fx(c.x[i]), fy(c.y[i] + e))});
            }
        }
        if (!line.empty()) d.lines.push_back(std::move(line));
    }
    return d;
}

// The axes, the frame and what is drawn in it, with no legend.
LineLayout axes_layout(const LinePlot& p, const Rect& cell, double char_mm) {
    const double cw = 0.62 * char_mm;  // the margins' unit, as the other panels lay theirs out
    LineLayout out{};
    out.frame = {cell.x0 + 11.0 * cw, cell.x1 - 3.0 * cw, cell.y0 + 4.4 * char_mm, cell.y1 - 2.2 * char_mm};
    auto fx = [&](double x) { return p.log_x ? std::log10(x) : x; };
    auto fy = [&](double y) { return p.log_y ? std::log10(y) : y; };
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (const Curve& c : p.curves)
        for (std::size_t i = 0; i < c.x.size(); ++i) {
            const double e = c.error.empty() ? 0.0 : std::abs(c.error[i]);
            x0 = std::min(x0, fx(c.x[i])), x1 = std::max(x1, fx(c.x[i]));
            // a bar reaching 0 or below on a log axis is drawn to the axis's end
            y0 = std::min(y0, c.y[i] - e > 0 || !p.log_y ? fy(c.y[i] - e) : fy(c.y[i])),
            y1 = std::max(y1, fy(c.y[i] + e));
        }
    if (p.log_x) {
        const LogAxis a = log_axis(x0, x1);
        x0 = a.lo, x1 = a.hi, out.x_ticks = a.ticks;
    } else {
        pad_linear(x0, x1);
    }
    if (p.log_y) {
        const LogAxis a = log_axis(y0, y1);
        y0 = a.lo, y1 = a.hi, out.y_ticks = a.ticks;
    } else {
        pad_linear(y0, y1);
    }
    out.x0 = x0, out.x1 = x1, out.y0 = y0, out.y1 = y1;
    out.drawn = project(p, out, char_mm);
    return out;
}

// Where the legend goes when no place inside the frame is free: beside the frame or under its
// x axis, the frame giving up the room.
void legend_outside(const LinePlot& p, const Rect& cell, double char_mm, LineLayout& out) {
    const double w = out.legend_column, gap = 0.6 * char_mm;
    const std::size_t n = p.curves.size();
    const double frame_w = out.frame.x1 - out.frame.x0, frame_h = out.frame.y1 - out.frame.y0;
    // under the x axis: as many columns as the cell's width holds
    const int columns = static_cast<int>(std::clamp(std::floor((cell.x1 - cell.x0) / w), 1.0, static_cast<double>(n)));
    const double h_beside = legend_height(n, 1, char_mm), h_under = legend_height(n, columns, char_mm);
    const double beside_area = (frame_w - w - gap) * frame_h, under_area = frame_w * (frame_h - h_under - gap);
    const bool beside_fits = h_beside <= frame_h && w + gap < frame_w;
    const bool beside =
        beside_fits && (w + gap <= 0.4 * frame_w  // a narrow legend stands beside
                        || (h_under + gap > 0.5 * frame_h && beside_area >= under_area));  // else the larger frame
    if (beside) {  // at the frame's top: the frame gives up the legend's width
        out.frame.x1 -= w + gap;
        out.legend_box = {out.frame.x1 + gap, out.frame.x1 + gap + w, out.frame.y1 - h_beside, out.frame.y1};
    } else {  // under the x axis's label: the frame gives up the legend's height
        const double lw = w * columns, x = std::max(cell.x0, (out.frame.x0 + out.frame.x1 - lw) / 2);
        out.legend_columns = columns;
        out.legend_box = {x, std::min(cell.x1, x + lw), cell.y0 + 0.3 * char_mm, cell.y0 + 0.3 * char_mm + h_under};
        out.frame.y0 += h_under + gap;
    }
    out.drawn = project(p, out, char_mm);
}

}  // namespace

bool legend_fits_inside(const LinePlot& p, const Rect& cell, double char_mm) {
    const LineLayout l = axes_layout(p, cell, char_mm);
    const double h = legend_height(p.curves.size(), 1, char_mm);
    return free_place(l.frame, legend_entry_width(p, char_mm), h, 0.6 * char_mm, l.drawn).has_value();
}

LineLayout line_layout(const LinePlot& p, const Rect& cell, double char_mm, bool own_legend) {
    LineLayout out = axes_layout(p, cell, char_mm);
    if (own_legend && p.curves.size() >= 2) {
        out.legend = true;
        out.legend_row = legend_row_height(char_mm);
        out.legend_column = legend_entry_width(p, char_mm);
        const double h = legend_height(p.curves.size(), 1, char_mm);
        if (const auto inside = free_place(out.frame, out.legend_column, h, 0.6 * char_mm, out.drawn))
            out.legend_box = *inside;
        else legend_outside(p, cell, char_mm, out);
    }
    // a log x axis's labels that would reach past the cell are left off (never clipped)
    for (Tick& t : out.x_ticks) {
        const double x = out.frame.x0 + (t.at - out.x0) / (out.x1 - out.x0) * (out.frame.x1 - out.frame.x0);
        const double half = text_width(t.label, char_mm) / 2;
        if (x - half < cell.x0 || x + half > cell.x1) t.label.clear();
    }
    return out;
}

}  // namespace plot
