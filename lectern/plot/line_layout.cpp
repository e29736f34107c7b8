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
        if (text[i] == '#' && i + 1 < text.size() && (text[i + 1] == 'u' || text[i + 1] == 'd')) {
            ++i;  // a super- or subscript switch draws nothing
        } else if (text.compare(i, 2, "#(") == 0) {
            i = text.find(')', i);  // a glyph by number: one character
            ++glyphs;
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

// The candidate places, in order of preference.
std::vector<Rect> places(const Rect& frame, double w, double h, double gap) {
    const double left = frame.x0 + gap, right = frame.x1 - gap - w, centre = (frame.x0 + frame.x1 - w) / 2;
    const double top = frame.y1 - gap - h, bottom = frame.y0 + gap, middle = (frame.y0 + frame.y1 - h) / 2;
    if (right < left || top < bottom) return {};  // the frame is smaller than the box
    std::vector<Rect> out;
    for (const Point& at : {Point{right, top}, Point{left, top}, Point{right, bottom}, Point{left, bottom},
                            Point{centre, top}, Point{centre, bottom}, Point{right, middle}, Point{left, middle}})
        out.push_back({at.x, at.x + w, at.y, at.y + h});
    return out;
}

// How many markers and line segments the box covers.
std::size_t coverage(const Rect& box, const Drawn& drawn) {
    std::size_t n = 0;
    for (const Point& m : drawn.markers) n += covers(box, Drawn{{}, {m}, drawn.marker_radius});
    for (const auto& line : drawn.lines)
        for (std::size_t i = 0; i < line.size(); ++i) n += covers(box, Drawn{{{line[i == 0 ? 0 : i - 1], line[i]}}, {}, 0});
    return n;
}

Rect least_covered_place(const Rect& frame, double w, double h, double gap, const Drawn& drawn) {
    const std::vector<Rect> candidates = places(frame, w, h, gap);
    if (candidates.empty()) return {frame.x1 - w, frame.x1, frame.y1 - h, frame.y1};
    return *std::min_element(candidates.begin(), candidates.end(),
                             [&](const Rect& a, const Rect& b) { return coverage(a, drawn) < coverage(b, drawn); });
}

}  // namespace

std::optional<Rect> free_place(const Rect& frame, double w, double h, double gap, const Drawn& drawn) {
    for (const Rect& box : places(frame, w, h, gap))
        if (!covers(box, drawn)) return box;
    return std::nullopt;
}

LineLayout line_layout(const LinePlot& p, const Rect& cell, double char_mm) {
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
            y0 = std::min(y0, c.y[i] - e > 0 || !p.log_y ? fy(c.y[i] - e) : fy(c.y[i])), y1 = std::max(y1, fy(c.y[i] + e));
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

    auto project = [&](const Rect& f) {
        Drawn d;
        d.marker_radius = 0.6 * char_mm;  // the largest mark, a hollow square at 1.2 times the text
        auto at = [&](double x, double y) {
            return Point{f.x0 + (x - x0) / (x1 - x0) * (f.x1 - f.x0), f.y0 + (y - y0) / (y1 - y0) * (f.y1 - f.y0)};
        };
        for (const Curve& c : p.curves) {
            std::vector<Point> line;
            for (std::size_t i = 0; i < c.x.size(); ++i) {
                const Point pt = at(fx(c.x[i]), fy(c.y[i]));
                if (c.markers) d.markers.push_back(pt);
                else line.push_back(pt);
                if (!c.error.empty() && c.error[i] != 0) {
                    const double e = std::abs(c.error[i]);
                    const double lo = c.y[i] - e > 0 || !p.log_y ? fy(c.y[i] - e) : y0;
                    d.lines.push_back({at(fx(c.x[i]), lo), at(fx(c.x[i]), fy(c.y[i] + e))});
                }
            }
            if (!line.empty()) d.lines.push_back(std::move(line));
        }
        return d;
    };
    out.drawn = project(out.frame);

    // a log x axis's labels that would reach past the cell are left off (never clipped)
    for (Tick& t : out.x_ticks) {
        const double x = out.frame.x0 + (t.at - x0) / (x1 - x0) * (out.frame.x1 - out.frame.x0);
        const double half = text_width(t.label, char_mm) / 2;
        if (x - half < cell.x0 || x + half > cell.x1) t.label.clear();
    }

    if (p.curves.size() < 2) return out;
    out.legend = true;
    out.legend_row = 1.5 * char_mm;
    double text = 0;
    for (const Curve& c : p.curves) text = std::max(text, text_width(c.name, char_mm));
    const double w = 4.6 * cw + text + 1.0 * cw, h = out.legend_row * static_cast<double>(p.curves.size()) + 0.5 * char_mm;
    const double gap = 0.6 * char_mm;
    if (const auto inside = free_place(out.frame, w, h, gap, out.drawn)) {
        out.legend_box = *inside;
        return out;
    }
    const double frame_w = out.frame.x1 - out.frame.x0, frame_h = out.frame.y1 - out.frame.y0;
    if (w + gap <= 0.4 * frame_w) {  // beside the frame, at its top: the frame gives up the legend's width
        out.frame.x1 -= w + gap;
        out.legend_box = {out.frame.x1 + gap, out.frame.x1 + gap + w, out.frame.y1 - h, out.frame.y1};
    } else if (h + gap <= 0.5 * frame_h) {  // under the x axis's label: the frame gives up the legend's height
        const double x = std::max(cell.x0, (out.frame.x0 + out.frame.x1 - w) / 2);
        out.legend_box = {x, x + w, cell.y0 + 0.3 * char_mm, cell.y0 + 0.3 * char_mm + h};
        out.frame.y0 += h + gap;
    } else {  // a panel too small for either keeps the frame, and the legend covers what it must
        out.legend_box = least_covered_place(out.frame, w, h, gap, out.drawn);
    }
    out.drawn = project(out.frame);
    return out;
}

}  // namespace plot
