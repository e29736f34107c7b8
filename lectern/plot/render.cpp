// The figure drawn by PLplot: the "svg" device (text stays text, so tests and
// readers can search it; svg_file.h finishes it) or "pngcairo" (antialiased,
// with real fonts). PLplot
// writes to a file it names itself; that file lives in a private temporary
// folder and only its bytes leave this function.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <type_traits>

#include <fmt/format.h>
#include <plstream.h>

#include "lectern/plot/figure.h"
#include "lectern/plot/figure_layout.h"
#include "lectern/plot/line_layout.h"
#include "lectern/plot/raster.h"
#include "lectern/plot/svg_file.h"

namespace plot {

namespace {

// cmap0: the page, the ink, a light grid, the curves' colours, then one the cells are filled with.
enum Ink : PLINT { kPaper = 0, kInk = 1, kGrid = 2, kFirstCurve = 3 };
constexpr int kCurveColours[][3] = {{31, 119, 180},  {214, 39, 40},  {44, 160, 44}, {255, 127, 14},
                                    {148, 103, 189}, {23, 190, 207}, {140, 86, 75}, {227, 119, 194}};
constexpr int kCurveColourCount = static_cast<int>(std::size(kCurveColours));
constexpr PLINT kCell = kFirstCurve + kCurveColourCount;
// a curve's ink: its palette colour, the blue a unit off per dash pattern, so that in an SVG, where
// a dash array is keyed by the stroke's colour, two patterns of one colour stay apart (unseen on the page)
constexpr PLINT kCurveInk = kCell + 1;
// the marked curves' shapes, in turn: hollow ones let a coinciding mark show through
constexpr const char* kMarkers[] = {"●", "□", "▲", "◇", "▼", "○", "■", "△"};
constexpr double kMarkerSize[] = {0.8, 1.2, 0.8, 1.2, 0.8, 1.2, 0.8, 1.2};  // hollow ones larger, to ring a filled one
constexpr std::size_t kMarkerCount = std::size(kMarkers);
// the lines' dash patterns, in turn (marks and spaces in micrometres): the first solid,
// the rest dashed, so a line lying on another leaves it showing through its gaps
struct Dashes {
    PLINT n;
    PLINT mark[2], space[2];
};
constexpr Dashes kDashes[] = {{0, {}, {}},
                              {1, {2500}, {1200}},
                              {1, {800}, {800}},
                              {2, {2500, 800}, {800, 800}},
                              {1, {1500}, {500}}};
constexpr std::size_t kDashCount = std::size(kDashes);

// Characters in a UTF-8 string (a token label's width).
std::size_t glyphs(const std::string& s) {
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::size_t widest(const std::vector<std::string>& labels) {
    std::size_t w = 0;
    for (const std::string& l : labels) w = std::max(w, glyphs(l));
    return w;
}

// The widest label's width in millimetres.
double text_width_glyphs(const std::vector<std::string>& labels, double char_mm) {
    double w = 0;
    for (const std::string& l : labels) w = std::max(w, text_width(l, char_mm));
    return w;
}

// A caller's text as PLplot draws it literally. '#' is PLplot's escape
// character ("#u" raises, "#(" draws a glyph by number, "#[" a code point), so
// each is doubled: a token or a category name is drawn as it is spelt.
std::string literal(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '#') out += '#';
        out += c;
    }
    return out;
}

void make_literal(std::vector<std::string>& texts) {
    for (std::string& t : texts) t = literal(t);
}

// The figure with all its words literal: the only escapes PLplot then sees are
// the log axes' own exponents (log_axis.h), added while drawing.
Figure with_literal_text(Figure figure) {
    figure.title = literal(figure.title);
    for (Panel& panel : figure.panels)
        std::visit(
            [](auto& p) {
                p.title = literal(p.title), p.x_label = literal(p.x_label), p.y_label = literal(p.y_label);
                using P = std::decay_t<decltype(p)>;
                if constexpr (std::is_same_v<P, LinePlot>) {
                    for (Curve& c : p.curves) c.name = literal(c.name);
                } else if constexpr (std::is_same_v<P, HeatMap>) {
                    make_literal(p.row_labels), make_literal(p.col_labels);
                    p.scale.label = literal(p.scale.label);
                } else {
                    make_literal(p.categories);
                }
            },
            panel);
    return figure;
}

// A folder only this process writes to, removed with everything in it.
class PrivateFolder {
public:
    PrivateFolder() {
        std::string pattern = (std::filesystem::temp_directory_path() / "lectern-plot-XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr) throw Error("cannot make a temporary folder to draw in");
        path_ = pattern;
    }
    ~PrivateFolder() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    PrivateFolder(const PrivateFolder&) = delete;
    PrivateFolder& operator=(const PrivateFolder&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

// The page in millimetres and the height of a character, to lay panels out in characters.
struct Page {
    double width_mm, height_mm, char_mm;
    double cx() const { return 0.62 * char_mm / width_mm; }  // one character's width, as a fraction of the page
    double cy() const { return char_mm / height_mm; }        // one character's height, likewise
};

struct Box {
    double x0, x1, y0, y1;  // page fractions
};

// What the panels draw on: the stream, the page, the text's scale, and (for
// an SVG) the heat maps' cells kept to embed as pictures.
struct Canvas {
    plstream& pls;
    Page page;
    double text;  // the panels' character scale (plschr)
    Format format;
    std::vector<PlacedRaster> rasters;
    std::map<std::string, std::string> dashes;  // an SVG's dashed lines: stroke colour -> dash array in points
};

// Lines in pattern k from here on. PLplot draws a dashed line dash by dash,
// which in an SVG is an element per dash; there the line is drawn whole and
// its colour's polylines get a stroke-dasharray instead (svg_file.h).
void dashes(Canvas& canvas, std::size_t k, const std::string& colour) {
    const Dashes& d = kDashes[k % kDashCount];
    if (canvas.format == Format::png) {
        Dashes copy = d;
        canvas.pls.styl(copy.n, copy.mark, copy.space);
        return;
    }
    if (d.n == 0) return;
    std::string array;
    for (PLINT i = 0; i < d.n; ++i)  // micrometres to points
        array += fmt::format("{}{:.2f},{:.2f}", i == 0 ? "" : ",", d.mark[i] / 352.78, d.space[i] / 352.78);
    canvas.dashes.emplace(colour, array);
}

void viewport_mm(plstream& pls, const Page& page, const Rect& r) {
    pls.vpor(r.x0 / page.width_mm, r.x1 / page.width_mm, r.y0 / page.height_mm, r.y1 / page.height_mm);
}

// The raster over the current viewport: in a PNG, PLplot fills each run of
// equal pixels in a row (reaching half a pixel into the next cell, so no
// antialiased seam shows between cells); in an SVG, one picture embedded later.
void draw_raster(Canvas& canvas, const Raster& raster) {
    if (canvas.format == Format::svg) {
        PLFLT x0 = 0, x1 = 0, y0 = 0, y1 = 0;
        canvas.pls.gvpd(x0, x1, y0, y1);
        canvas.rasters.push_back({raster, x0, x1, y0, y1});
        return;
    }
    plstream& pls = canvas.pls;
    PLFLT x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    pls.gvpd(x0, x1, y0, y1);
    // a seam of 0.15 mm (half a pixel at PLplot's 90 dpi), in cells
    const double seam_x = 0.15 / ((x1 - x0) * canvas.page.width_mm / static_cast<double>(raster.cols));
    const double seam_y = 0.15 / ((y1 - y0) * canvas.page.height_mm / static_cast<double>(raster.rows));
    pls.wind(0, static_cast<PLFLT>(raster.cols), static_cast<PLFLT>(raster.rows), 0);
    for (std::int64_t r = 0; r < raster.rows; ++r)
        for (std::int64_t c = 0; c < raster.cols;) {
            const Rgb colour = raster.pixels[static_cast<std::size_t>(r * raster.cols + c)];
            std::int64_t end = c + 1;
            while (end < raster.cols && raster.pixels[static_cast<std::size_t>(r * raster.cols + end)] == colour) ++end;
            const double right = static_cast<double>(end) + (end < raster.cols ? seam_x : 0.0);
            const double bottom = static_cast<double>(r + 1) + (r + 1 < raster.rows ? seam_y : 0.0);
            PLFLT xs[] = {static_cast<PLFLT>(c), right, right, static_cast<PLFLT>(c)};
            PLFLT ys[] = {static_cast<PLFLT>(r), static_cast<PLFLT>(r), bottom, bottom};
            pls.scol0(kCell, colour.r, colour.g, colour.b);
            pls.col0(kCell);
            pls.fill(4, xs, ys);
            c = end;
        }
}

// The character scale at which `text`, set at `scale` times the panels' text, fits in room_mm.
double fitted(const Canvas& canvas, const std::string& text, double scale, double room_mm) {
    const double width = text_width(text, scale * canvas.page.char_mm);
    return width > room_mm ? scale * room_mm / width : scale;
}

// A panel's title over its frame, centred on it and shrunk to stay within the cell (x0, x1 as
// page fractions), and its axes' labels.
void title_and_labels(Canvas& canvas, double cell_x0, double cell_x1, const std::string& title,
                      const std::string& x_label, double x_disp, const std::string& y_label, double y_disp) {
    plstream& pls = canvas.pls;
    PLFLT x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    pls.gvpd(x0, x1, y0, y1);
    const double centre = (x0 + x1) / 2, room = 2 * std::min(centre - cell_x0, cell_x1 - centre) * canvas.page.width_mm;
    pls.col0(kInk);
    pls.schr(0, fitted(canvas, title, 1.0, room - canvas.page.char_mm) * canvas.text);
    pls.mtex("t", 1.0, 0.5, 0.5, title.c_str());
    pls.schr(0, canvas.text);
    pls.mtex("b", x_disp, 0.5, 0.5, x_label.c_str());
    pls.mtex("l", y_disp, 0.5, 0.5, y_label.c_str());
}

// Ticks of a log axis (log_axis.h) on both sides of the frame, a grid line at each labelled one.
void draw_log_ticks(plstream& pls, const LineLayout& l, const std::vector<Tick>& ticks, bool x_axis, double char_mm) {
    const double major = 0.7 * char_mm, minor = 0.4 * char_mm;
    const double per_mm =
        x_axis ? (l.y1 - l.y0) / (l.frame.y1 - l.frame.y0) : (l.x1 - l.x0) / (l.frame.x1 - l.frame.x0);
    for (const Tick& t : ticks) {
        const double len = (t.label.empty() ? minor : major) * per_mm;
        auto segment = [&](double a0, double a1, double b0, double b1) {
            PLFLT xs[] = {a0, a1}, ys[] = {b0, b1};
            pls.line(2, xs, ys);
        };
        if (!t.label.empty()) {
            pls.col0(kGrid);
            if (x_axis) segment(t.at, t.at, l.y0, l.y1);
            else segment(l.x0, l.x1, t.at, t.at);
        }
        pls.col0(kInk);
        if (x_axis) {
            segment(t.at, t.at, l.y0, l.y0 + len), segment(t.at, t.at, l.y1, l.y1 - len);
            if (!t.label.empty()) pls.mtex("b", 1.6, (t.at - l.x0) / (l.x1 - l.x0), 0.5, t.label.c_str());
        } else {
            segment(l.x0, l.x0 + len, t.at, t.at), segment(l.x1, l.x1 - len, t.at, t.at);
            if (!t.label.empty()) pls.mtex("lv", 0.7, (t.at - l.y0) / (l.y1 - l.y0), 1.0, t.label.c_str());
        }
    }
}

// Each curve's colour and mark or dash pattern: the curve's own when it names them, else the next
// in turn (colours by curve, shapes by marked curve, patterns by line).
struct CurveStyles {
    std::vector<std::size_t> colours, shapes, patterns;
};

CurveStyles curve_styles(const LinePlot& p) {
    CurveStyles s;
    std::size_t marked = 0, lines = 0;
    for (std::size_t k = 0; k < p.curves.size(); ++k) {
        const Curve& c = p.curves[k];
        s.colours.push_back(static_cast<std::size_t>(c.colour >= 0 ? c.colour : static_cast<int>(k)) %
                            kCurveColourCount);
        const std::size_t own = static_cast<std::size_t>(std::max(0, c.dash));
        s.shapes.push_back((c.markers ? (c.dash >= 0 ? own : marked++) : 0) % kMarkerCount);
        s.patterns.push_back(c.markers ? 0 : (c.dash >= 0 ? own : lines++) % kDashCount);
    }
    return s;
}

// Curve k's ink from here on (its pattern's, or a solid mark's); returns it as an SVG colour.
std::string curve_ink(Canvas& canvas, const CurveStyles& styles, std::size_t k, bool solid = false) {
    const int* rgb = kCurveColours[styles.colours[k]];
    const int blue = rgb[2] + (solid ? 0 : static_cast<int>(styles.patterns[k]));
    canvas.pls.scol0(kCurveInk, rgb[0], rgb[1], blue);
    canvas.pls.col0(kCurveInk);
    return fmt::format("#{:02X}{:02X}{:02X}", rgb[0], rgb[1], blue);
}

// A legend in its box, drawn in its own millimetres: the box, then per curve its line or mark and
// its name, in rows of `columns` entries each `column` wide, at the axis labels' size.
void draw_legend(Canvas& canvas, const Rect& b, const LinePlot& p, int columns, double row, double column) {
    plstream& pls = canvas.pls;
    const Page& page = canvas.page;
    const CurveStyles styles = curve_styles(p);
    const double w = b.x1 - b.x0, h = b.y1 - b.y0, cw = 0.62 * page.char_mm;
    viewport_mm(pls, page, b);
    pls.wind(0, w, 0, h);
    PLFLT bx[] = {0, w, w, 0}, by[] = {0, 0, h, h};
    pls.col0(kPaper);
    pls.fill(4, bx, by);
    pls.col0(kInk);
    pls.box("bc", 0, 0, "bc", 0, 0);
    for (std::size_t k = 0; k < p.curves.size(); ++k) {
        const auto r = static_cast<double>(k / static_cast<std::size_t>(columns)),
                   c = static_cast<double>(k % static_cast<std::size_t>(columns));
        const double x = c * column, y = h - 0.25 * page.char_mm - (r + 0.5) * row;
        const std::string colour = curve_ink(canvas, styles, k);
        if (p.curves[k].markers) {
            PLFLT mx[] = {x + 2.3 * cw}, my[] = {y};
            pls.schr(0, kMarkerSize[styles.shapes[k]] * canvas.text);
            pls.string(1, mx, my, kMarkers[styles.shapes[k]]);
            pls.schr(0, canvas.text);
        } else {
            PLFLT lx[] = {x + 0.8 * cw, x + 3.8 * cw}, ly[] = {y, y};
            pls.width(1.6);
            dashes(canvas, styles.patterns[k], colour);
            pls.line(2, lx, ly);
            dashes(canvas, 0, colour);
            pls.width(1.0);
        }
        pls.col0(kInk);
        pls.ptex(x + 4.6 * cw, y, 1, 0, 0, p.curves[k].name.c_str());
    }
}

// A line plot; its legend too unless the figure's shared legend names its curves.
void draw(Canvas& canvas, const Rect& cell, const LinePlot& p, bool own_legend) {
    plstream& pls = canvas.pls;
    const Page& page = canvas.page;
    const LineLayout l = line_layout(p, cell, page.char_mm, own_legend);
    viewport_mm(pls, page, l.frame);
    pls.wind(l.x0, l.x1, l.y0, l.y1);
    pls.col0(kGrid);
    pls.box(p.log_x ? "" : "g", 0, 0, p.log_y ? "" : "g", 0, 0);
    draw_log_ticks(pls, l, l.x_ticks, true, page.char_mm);
    draw_log_ticks(pls, l, l.y_ticks, false, page.char_mm);
    pls.col0(kInk);
    pls.box(p.log_x ? "bc" : "bcnst", 0, 0, p.log_y ? "bc" : "bcnstv", 0, 0);
    double y_disp = 5.0;  // the y axis's label clears its widest tick label
    for (const Tick& t : l.y_ticks) y_disp = std::max(y_disp, text_width(t.label, page.char_mm) / page.char_mm + 1.6);
    title_and_labels(canvas, cell.x0 / page.width_mm, cell.x1 / page.width_mm, p.title, p.x_label, 3.2, p.y_label,
                     y_disp);

    auto fx = [&](double x) { return p.log_x ? std::log10(x) : x; };
    auto fy = [&](double y) { return p.log_y ? std::log10(y) : y; };
    const double cap = 0.35 * page.char_mm * (l.x1 - l.x0) / (l.frame.x1 - l.frame.x0);  // an error bar's half-cap
    const CurveStyles styles = curve_styles(p);
    for (std::size_t k = 0; k < p.curves.size(); ++k) {
        const Curve& c = p.curves[k];
        curve_ink(canvas, styles, k, true);  // the error bars solid
        std::vector<PLFLT> x, y;
        for (std::size_t i = 0; i < c.x.size(); ++i) x.push_back(fx(c.x[i])), y.push_back(fy(c.y[i]));
        pls.width(1.2);
        for (std::size_t i = 0; i < c.error.size(); ++i) {
            const double e = std::abs(c.error[i]);
            if (e == 0) continue;
            const double lo = c.y[i] - e > 0 || !p.log_y ? fy(c.y[i] - e) : l.y0, hi = fy(c.y[i] + e);
            PLFLT bx[] = {x[i], x[i]}, by[] = {lo, hi}, cx[] = {x[i] - cap, x[i] + cap}, lo_y[] = {lo, lo},
                  hi_y[] = {hi, hi};
            pls.line(2, bx, by), pls.line(2, cx, lo_y), pls.line(2, cx, hi_y);
        }
        pls.width(1.6);
        if (c.markers) {
            pls.schr(0, kMarkerSize[styles.shapes[k]] * canvas.text);
            pls.string(static_cast<PLINT>(x.size()), x.data(), y.data(), kMarkers[styles.shapes[k]]);
            pls.schr(0, canvas.text);
        } else {
            const std::string colour = curve_ink(canvas, styles, k);
            dashes(canvas, styles.patterns[k], colour);
            pls.line(static_cast<PLINT>(x.size()), x.data(), y.data());
            dashes(canvas, 0, colour);
        }
    }
    pls.width(1.0);
    if (l.legend) draw_legend(canvas, l.legend_box, p, l.legend_columns, l.legend_row, l.legend_column);
}

double luminance(Rgb c) { return (0.299 * c.r + 0.587 * c.g + 0.114 * c.b) / 255; }

void draw(Canvas& canvas, const Box& cell, const HeatMap& p) {
    plstream& pls = canvas.pls;
    const Page& page = canvas.page;
    const bool tokens_x = !p.col_labels.empty(), tokens_y = !p.row_labels.empty();
    // x labels wider than their column (estimated from a panel without them) stand upright
    const double room_mm = (cell.x1 - cell.x0) * page.width_mm / static_cast<double>(p.cols + 6);
    const bool upright_x = tokens_x && text_width_glyphs(p.col_labels, page.char_mm) > 0.9 * room_mm;
    const double label_w = tokens_y ? static_cast<double>(widest(p.row_labels)) : 4.0;
    const double left = label_w + 6.0, top = 2.6;  // in character widths
    const double bottom = upright_x ? 0.62 * static_cast<double>(widest(p.col_labels)) + 3.0 : 4.4;  // in heights
    const double right = 13.0;  // the colour bar's room, kept when it is not drawn so panels in a grid align
    // square cells, centred in what the margins leave
    const double w_mm = (cell.x1 - cell.x0 - (left + right) * page.cx()) * page.width_mm;
    const double h_mm = (cell.y1 - cell.y0 - (bottom + top) * page.cy()) * page.height_mm;
    const double side = std::max(0.0, std::min(w_mm / static_cast<double>(p.cols), h_mm / static_cast<double>(p.rows)));
    const double mw = side * static_cast<double>(p.cols) / page.width_mm,
                 mh = side * static_cast<double>(p.rows) / page.height_mm;
    const double x0 = cell.x0 + left * page.cx() + (w_mm / page.width_mm - mw) / 2;
    const double y0 = cell.y0 + bottom * page.cy() + (h_mm / page.height_mm - mh) / 2;
    pls.vpor(x0, x0 + mw, y0, y0 + mh);
    const Raster raster = heat_map_raster(p);
    draw_raster(canvas, raster);
    // world: column c at x = c, row r at y = r, y growing downwards so row 0 is on top
    pls.wind(-0.5, static_cast<double>(p.cols) - 0.5, static_cast<double>(p.rows) - 0.5, -0.5);
    if (p.cell_values) {
        // two decimals, as large as a cell holds and no larger than the labels; white on dark cells
        const double fit = std::min(1.0, 0.85 * side / text_width("0.00", page.char_mm));
        pls.schr(0, fit * canvas.text);
        for (std::int64_t r = 0; r < p.rows; ++r)
            for (std::int64_t c = 0; c < p.cols; ++c) {
                const auto at = static_cast<std::size_t>(r * p.cols + c);
                if (!p.masked.empty() && p.masked[at]) continue;
                const Rgb colour = p.under.pixels.empty() ? raster.pixels[at] : palette_colour(p.scale.palette, 0.5);
                pls.col0(luminance(colour) < 0.5 ? kPaper : kInk);
                pls.ptex(static_cast<PLFLT>(c), static_cast<PLFLT>(r), 1, 0, 0.5,
                         fmt::format("{:.2f}", p.values[at]).c_str());
            }
        pls.schr(0, canvas.text);
    }
    pls.col0(kInk);
    pls.box(tokens_x ? "bc" : "bcnst", 0, 0, tokens_y ? "bc" : "bcnstv", 0, 0);
    for (std::size_t c = 0; c < p.col_labels.size(); ++c) {
        const double at = (static_cast<double>(c) + 0.5) / static_cast<double>(p.cols);
        if (upright_x) pls.mtex("bv", 0.5, at, 1.0, p.col_labels[c].c_str());
        else pls.mtex("b", 1.3, at, 0.5, p.col_labels[c].c_str());
    }
    for (std::size_t r = 0; r < p.row_labels.size(); ++r)
        pls.mtex("lv", 0.5, 1.0 - (static_cast<double>(r) + 0.5) / static_cast<double>(p.rows), 1.0,
                 p.row_labels[r].c_str());
    title_and_labels(canvas, cell.x0, cell.x1, p.title, p.x_label, bottom - 1.2, p.y_label, 0.62 * label_w + 2.0);
    if (!p.colour_bar) return;

    const double bx0 = x0 + mw + 1.2 * page.cx(), bx1 = bx0 + 1.6 * page.cx();
    pls.vpor(bx0, bx1, y0, y0 + mh);
    draw_raster(canvas, colour_bar_raster(p.scale, 64));
    pls.wind(-0.5, 0.5, p.scale.min, p.scale.max);
    // the bar framed, its ticks outside on the right beside their values (the finest step of 1, 2 or
    // 5 times a power of ten whose values stand a line and a half apart, at most eleven), so no mark
    // crosses the colours; its label clears the widest value
    const double span = p.scale.max - p.scale.min, decade = std::pow(10.0, std::floor(std::log10(span)));
    const double steps_fit = std::min(10.0, std::floor(mh * page.height_mm / (1.5 * page.char_mm)));
    double step = 10 * decade;
    for (const double m : {0.1, 0.2, 0.5, 1.0, 2.0, 5.0})
        if (span / (m * decade) <= std::max(1.0, steps_fit) + 1e-9) {
            step = m * decade;
            break;
        }
    const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
    double widest_value = 0;
    for (double v = std::ceil(p.scale.min / step) * step; v <= p.scale.max + 1e-9 * span; v += step)
        widest_value = std::max(widest_value, text_width(fmt::format("{:.{}f}", v, decimals), page.char_mm));
    pls.col0(kInk);
    pls.box("bc", 0, 0, "bc", 0, 0);
    pls.box("", 0, 0, "cimtv", step, 0);
    pls.mtex("r", 1.4 + widest_value / page.char_mm + 0.6, 0.5, 0.5, p.scale.label.c_str());
}

void draw(Canvas& canvas, const Box& cell, const BarChart& p) {
    plstream& pls = canvas.pls;
    const Page& page = canvas.page;
    const double left = 11.0, top = 2.2, right = 3.0;
    // names flat when each fits under its bar, else upright
    const double slot_mm =
        (cell.x1 - cell.x0 - (left + right) * page.cx()) * page.width_mm / static_cast<double>(p.values.size());
    const bool upright = text_width_glyphs(p.categories, page.char_mm) > 0.9 * slot_mm;
    const double bottom = upright ? 0.62 * static_cast<double>(widest(p.categories)) + 2.8 : 4.4;
    pls.vpor(cell.x0 + left * page.cx(), cell.x1 - right * page.cx(), cell.y0 + bottom * page.cy(),
             cell.y1 - top * page.cy());
    auto error = [&](std::size_t i) { return p.error.empty() ? 0.0 : std::abs(p.error[i]); };
    double lo = 0, hi = 0;  // the axis holds 0, every bar and every whisker
    for (std::size_t i = 0; i < p.values.size(); ++i)
        lo = std::min(lo, p.values[i] - error(i)), hi = std::max(hi, p.values[i] + error(i));
    if (hi - lo <= 0) hi = lo + 1;
    const double pad = 0.06 * (hi - lo);
    pls.wind(-0.5, static_cast<double>(p.values.size()) - 0.5, lo < 0 ? lo - pad : 0, hi + pad);
    pls.col0(kGrid);
    pls.box("", 0, 0, "g", 0, 0);
    pls.col0(kFirstCurve);
    for (std::size_t i = 0; i < p.values.size(); ++i) {
        const double x = static_cast<double>(i);
        PLFLT xs[] = {x - 0.35, x + 0.35, x + 0.35, x - 0.35}, ys[] = {0, 0, p.values[i], p.values[i]};
        pls.fill(4, xs, ys);
    }
    pls.col0(kInk);
    pls.width(1.2);
    for (std::size_t i = 0; i < p.values.size(); ++i) {  // the whiskers, in ink over the bars, capped a third as wide
        const double e = error(i);
        if (e == 0) continue;
        const double x = static_cast<double>(i), v = p.values[i];
        PLFLT bx[] = {x, x}, by[] = {v - e, v + e}, cx[] = {x - 0.12, x + 0.12}, lo_y[] = {v - e, v - e},
              hi_y[] = {v + e, v + e};
        pls.line(2, bx, by), pls.line(2, cx, lo_y), pls.line(2, cx, hi_y);
    }
    pls.width(1.0);
    pls.box("bc", 0, 0, "bcnstv", 0, 0);
    for (std::size_t i = 0; i < p.categories.size(); ++i) {
        const double at = (static_cast<double>(i) + 0.5) / static_cast<double>(p.values.size());
        if (upright) pls.mtex("bv", 0.5, at, 1.0, p.categories[i].c_str());
        else pls.mtex("b", 1.3, at, 0.5, p.categories[i].c_str());
    }
    title_and_labels(canvas, cell.x0, cell.x1, p.title, p.x_label, bottom - 1.2, p.y_label, 5.0);
}

}  // namespace

std::string render(const Figure& given, Format format) {
    check(given);
    const Figure figure = with_literal_text(given);
    PrivateFolder folder;
    std::vector<PlacedRaster> rasters;
    std::map<std::string, std::string> dashed;
    const std::filesystem::path file = folder.path() / (format == Format::svg ? "figure.svg" : "figure.png");
    {
        plstream pls;
        pls.sdev(format == Format::svg ? "svg" : "pngcairo");
        pls.sfnam(file.c_str());
        pls.spage(0, 0, figure.width, figure.height, 0, 0);
        pls.scolbg(255, 255, 255);
        pls.scmap0n(kCurveInk + 1);
        pls.scol0(kInk, 0, 0, 0);
        pls.scol0(kGrid, 220, 220, 220);
        for (int k = 0; k < kCurveColourCount; ++k)
            pls.scol0(kFirstCurve + k, kCurveColours[k][0], kCurveColours[k][1], kCurveColours[k][2]);
        pls.init();
        pls.adv(0);
        const double text = 0.85 * figure.text_size;
        pls.schr(0, text);
        PLFLT def = 0, ht = 0, xmin = 0, xmax = 0, ymin = 0, ymax = 0;
        pls.gchr(def, ht);
        pls.gspa(xmin, xmax, ymin, ymax);
        Canvas canvas{pls, {xmax - xmin, ymax - ymin, ht}, text, format, {}, {}};
        const Page& page = canvas.page;
        if (!figure.title.empty()) {  // 1.3 times the panels' text, whatever their size, or less to fit the page
            pls.vpor(0, 1, 0, 1);
            pls.col0(kInk);
            pls.schr(0, fitted(canvas, figure.title, 1.3, page.width_mm - 2 * page.char_mm) * text);
            pls.mtex("t", -1.6, 0.5, 0.5, figure.title.c_str());
            pls.schr(0, text);
        }
        const FigureLayout layout = figure_layout(figure, page.width_mm, page.height_mm, page.char_mm);
        for (std::size_t i = 0; i < figure.panels.size(); ++i) {
            const Rect& cell = layout.cells[i];
            const Box box{cell.x0 / page.width_mm, cell.x1 / page.width_mm, cell.y0 / page.height_mm,
                          cell.y1 / page.height_mm};
            std::visit(
                [&](const auto& p) {
                    if constexpr (std::is_same_v<std::decay_t<decltype(p)>, LinePlot>)
                        draw(canvas, cell, p, !layout.shared_legend);
                    else draw(canvas, box, p);
                },
                figure.panels[i]);
        }
        if (layout.shared_legend) {
            const SharedLegend& l = layout.legend;
            draw_legend(canvas, l.box, std::get<LinePlot>(figure.panels.front()), l.columns, l.row, l.column);
        }
        rasters = std::move(canvas.rasters);
        dashed = std::move(canvas.dashes);
    }  // the stream's end writes and closes the file
    std::ifstream in(file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // PLplot does not report a failed write (a full disk, a file-size limit): a
    // drawing is whole only if it ends as its format ends.
    const bool whole = format == Format::svg ? bytes.find("</svg>") != std::string::npos
                                             : bytes.size() >= 12 && bytes.compare(bytes.size() - 8, 4, "IEND") == 0;
    if (!whole)
        throw Error(fmt::format("cannot draw \"{}\": the drawing could not be written whole to {}", given.title,
                                file.string()));
    return format == Format::svg ? finish_svg(bytes, rasters, dashed, figure.width, figure.height) : bytes;
}

}  // namespace plot
