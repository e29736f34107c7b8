// The figure drawn by PLplot: the "svg" device (text stays text, so tests and
// readers can search it) or "pngcairo" (antialiased, with real fonts). PLplot
// writes to a file it names itself; that file lives in a private temporary
// folder and only its bytes leave this function.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include <fmt/format.h>
#include <plstream.h>

#include "lectern/plot/figure.h"

namespace plot {

namespace {

// cmap0: the page, the ink, a light grid, then the curves' colours.
enum Ink : PLINT { kPaper = 0, kInk = 1, kGrid = 2, kFirstCurve = 3 };
constexpr int kCurveColours[][3] = {{31, 119, 180}, {214, 39, 40}, {44, 160, 44}, {255, 127, 14},
                                    {148, 103, 189}, {23, 190, 207}, {140, 86, 75}, {227, 119, 194}};
constexpr int kCurveColourCount = static_cast<int>(std::size(kCurveColours));

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

// Characters in a UTF-8 string (a token label's width).
std::size_t glyphs(const std::string& s) {
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::size_t widest(const std::vector<std::string>& labels) {
    std::size_t w = 0;
    for (const std::string& l : labels) w = std::max(w, glyphs(l));
    return w;
}

void set_palette(plstream& pls, Palette palette) {
    struct Stop {
        double at, r, g, b, a;
    };
    std::vector<Stop> stops;
    switch (palette) {
    case Palette::sequential: stops = {{0, 1, 1, 1, 1}, {0.5, 0.42, 0.68, 0.84, 1}, {1, 0.03, 0.19, 0.42, 1}}; break;
    case Palette::diverging: stops = {{0, 0.02, 0.19, 0.38, 1}, {0.5, 1, 1, 1, 1}, {1, 0.40, 0.0, 0.12, 1}}; break;
    case Palette::grey: stops = {{0, 0, 0, 0, 1}, {1, 1, 1, 1, 1}}; break;
    case Palette::glow: stops = {{0, 1, 0, 0, 0}, {0.5, 1, 0.1, 0, 0.35}, {1, 1, 0.95, 0.2, 0.75}}; break;
    }
    std::vector<PLFLT> at, r, g, b, a;
    for (const Stop& s : stops) at.push_back(s.at), r.push_back(s.r), g.push_back(s.g), b.push_back(s.b), a.push_back(s.a);
    pls.scmap1n(256);
    pls.scmap1la(true, static_cast<PLINT>(stops.size()), at.data(), r.data(), g.data(), b.data(), a.data());
}

// Draws values[rows x cols] (row 0 at the top) over world x -0.5..cols-0.5, y -0.5..rows-0.5.
// plimagefr colours (nx - 1) x (ny - 1) cells, each by its lower corner's value, so
// the data goes in with one more column and row, each a copy of the last.
void draw_matrix(plstream& pls, std::int64_t rows, std::int64_t cols, const std::vector<double>& values, double lo,
                 double hi) {
    const auto R = static_cast<std::size_t>(rows), C = static_cast<std::size_t>(cols);
    std::vector<std::vector<PLFLT>> columns(C + 1, std::vector<PLFLT>(R + 1));
    for (std::size_t c = 0; c <= C; ++c)
        for (std::size_t r = 0; r <= R; ++r)
            columns[c][r] = std::clamp(values[std::min(r, R - 1) * C + std::min(c, C - 1)], lo, hi);
    std::vector<const PLFLT*> index;
    for (const auto& column : columns) index.push_back(column.data());
    pls.imagefr(index.data(), static_cast<PLINT>(C + 1), static_cast<PLINT>(R + 1), -0.5, static_cast<PLFLT>(cols) - 0.5,
                -0.5, static_cast<PLFLT>(rows) - 0.5, lo, hi, lo, hi, nullptr, nullptr);
}

// The page in millimetres and the height of a character, to lay panels out in characters.
struct Page {
    double width_mm, height_mm, char_mm;
    double cx() const { return 0.62 * char_mm / width_mm; }  // one character's width, as a fraction of the page
    double cy() const { return char_mm / height_mm; }        // one character's height, likewise
};

struct Box {
    double x0, x1, y0, y1;  // page fractions
};

void title_and_labels(plstream& pls, const std::string& title, const std::string& x_label, double x_disp,
                      const std::string& y_label, double y_disp) {
    pls.col0(kInk);
    pls.mtex("t", 1.0, 0.5, 0.5, title.c_str());
    pls.mtex("b", x_disp, 0.5, 0.5, x_label.c_str());
    pls.mtex("l", y_disp, 0.5, 0.5, y_label.c_str());
}

void draw(plstream& pls, const Page& page, const Box& cell, const LinePlot& p) {
    const double left = 11.0, bottom = 4.4, top = 2.2, right = 1.5;  // margins in character widths
    pls.vpor(cell.x0 + left * page.cx(), cell.x1 - right * page.cx(), cell.y0 + bottom * page.cy(), cell.y1 - top * page.cy());
    auto fx = [&](double x) { return p.log_x ? std::log10(x) : x; };
    auto fy = [&](double y) { return p.log_y ? std::log10(y) : y; };
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (const Curve& c : p.curves)
        for (std::size_t i = 0; i < c.x.size(); ++i)
            x0 = std::min(x0, fx(c.x[i])), x1 = std::max(x1, fx(c.x[i])), y0 = std::min(y0, fy(c.y[i])), y1 = std::max(y1, fy(c.y[i]));
    auto widen = [](double& lo, double& hi, bool log) {
        if (log) {  // whole decades, so each end carries a labelled power of ten
            lo = std::floor(lo), hi = std::ceil(hi);
            if (hi - lo < 1) hi = lo + 1;
        } else if (hi - lo < 1e-12 * std::max(1.0, std::abs(hi))) {
            lo -= std::max(1.0, std::abs(lo) * 0.1), hi += std::max(1.0, std::abs(hi) * 0.1);
        } else {
            const double pad = 0.04 * (hi - lo);
            lo -= pad, hi += pad;
        }
    };
    widen(x0, x1, p.log_x);
    widen(y0, y1, p.log_y);
    pls.wind(x0, x1, y0, y1);
    const std::string xl = p.log_x ? "l" : "", yl = p.log_y ? "l" : "";
    pls.col0(kGrid);
    pls.box(("g" + xl).c_str(), 0, 0, ("g" + yl).c_str(), 0, 0);
    pls.col0(kInk);
    pls.box(("bcnst" + xl).c_str(), 0, 0, ("bcnstv" + yl).c_str(), 0, 0);
    title_and_labels(pls, p.title, p.x_label, 3.2, p.y_label, 5.0);

    std::vector<PLINT> opts, colours, styles, numbers;
    std::vector<PLFLT> widths, scales;
    std::vector<const char*> names, symbols;
    for (std::size_t k = 0; k < p.curves.size(); ++k) {
        const Curve& c = p.curves[k];
        const PLINT colour = kFirstCurve + static_cast<PLINT>(k % kCurveColourCount);
        std::vector<PLFLT> x, y;
        for (std::size_t i = 0; i < c.x.size(); ++i) x.push_back(fx(c.x[i])), y.push_back(fy(c.y[i]));
        pls.col0(colour);
        pls.width(c.markers ? 1.0 : 1.6);
        pls.ssym(0, 0.6);
        if (c.markers)
            pls.string(static_cast<PLINT>(x.size()), x.data(), y.data(), "●");
        else
            pls.line(static_cast<PLINT>(x.size()), x.data(), y.data());
        opts.push_back(c.markers ? PL_LEGEND_SYMBOL : PL_LEGEND_LINE);
        colours.push_back(colour), styles.push_back(1), numbers.push_back(1);
        widths.push_back(1.6), scales.push_back(0.6);
        names.push_back(c.name.c_str()), symbols.push_back("●");
    }
    pls.width(1.0);
    if (p.curves.size() > 1) {
        PLFLT w = 0, h = 0;
        std::vector<PLINT> ink(p.curves.size(), kInk);
        // the corner the curves leave emptiest
        const PLINT corners[] = {PL_POSITION_TOP | PL_POSITION_RIGHT, PL_POSITION_TOP | PL_POSITION_LEFT,
                                 PL_POSITION_BOTTOM | PL_POSITION_RIGHT, PL_POSITION_BOTTOM | PL_POSITION_LEFT};
        std::size_t crowd[4] = {0, 0, 0, 0};
        for (const Curve& c : p.curves)
            for (std::size_t i = 0; i < c.x.size(); ++i) {
                const double u = (fx(c.x[i]) - x0) / (x1 - x0), v = (fy(c.y[i]) - y0) / (y1 - y0);
                const bool right = u > 0.45, left = u < 0.55, up = v > 0.6, down = v < 0.4;
                crowd[0] += right && up, crowd[1] += left && up, crowd[2] += right && down, crowd[3] += left && down;
            }
        const std::size_t best = static_cast<std::size_t>(std::min_element(std::begin(crowd), std::end(crowd)) - std::begin(crowd));
        pls.legend(&w, &h, PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX, corners[best] | PL_POSITION_INSIDE,
                   0.02, 0.03, 0.08, kPaper, kInk, 1, 0, 0, static_cast<PLINT>(p.curves.size()), opts.data(), 1.0, 0.9, 2.0,
                   0.0, ink.data(), names.data(), nullptr, nullptr, nullptr, nullptr, colours.data(), styles.data(),
                   widths.data(), colours.data(), scales.data(), numbers.data(), symbols.data());
    }
}

void draw(plstream& pls, const Page& page, const Box& cell, const HeatMap& p) {
    const bool tokens_x = !p.col_labels.empty(), tokens_y = !p.row_labels.empty();
    // x labels wider than their column (estimated from a panel without them) stand upright
    const double room_mm = (cell.x1 - cell.x0) * page.width_mm / static_cast<double>(p.cols + 6);
    const bool upright_x = tokens_x && 0.62 * page.char_mm * static_cast<double>(widest(p.col_labels)) > 0.9 * room_mm;
    const double label_w = tokens_y ? static_cast<double>(widest(p.row_labels)) : 4.0;
    const double left = label_w + 6.0, top = 2.2;  // in character widths
    const double bottom = upright_x ? 0.62 * static_cast<double>(widest(p.col_labels)) + 3.0 : 4.4;  // in heights
    const double right = 12.0;  // the colour bar's room, kept when it is not drawn so panels in a grid align
    // square cells, centred in what the margins leave
    const double w_mm = (cell.x1 - cell.x0 - (left + right) * page.cx()) * page.width_mm;
    const double h_mm = (cell.y1 - cell.y0 - (bottom + top) * page.cy()) * page.height_mm;
    const double side = std::max(0.0, std::min(w_mm / static_cast<double>(p.cols), h_mm / static_cast<double>(p.rows)));
    const double mw = side * static_cast<double>(p.cols) / page.width_mm, mh = side * static_cast<double>(p.rows) / page.height_mm;
    const double x0 = cell.x0 + left * page.cx() + (w_mm / page.width_mm - mw) / 2;
    const double y0 = cell.y0 + bottom * page.cy() + (h_mm / page.height_mm - mh) / 2;
    pls.vpor(x0, x0 + mw, y0, y0 + mh);
    // world: column c at x = c, row r at y = r, y growing downwards so row 0 is on top
    pls.wind(-0.5, static_cast<double>(p.cols) - 0.5, static_cast<double>(p.rows) - 0.5, -0.5);
    if (!p.under.pixels.empty()) {
        auto [lo, hi] = std::minmax_element(p.under.pixels.begin(), p.under.pixels.end());
        set_palette(pls, Palette::grey);
        // the picture spans the same square as the matrix, whatever its resolution
        pls.wind(-0.5, static_cast<double>(p.under.cols) - 0.5, static_cast<double>(p.under.rows) - 0.5, -0.5);
        draw_matrix(pls, p.under.rows, p.under.cols, p.under.pixels, *lo, *hi > *lo ? *hi : *lo + 1);
        pls.wind(-0.5, static_cast<double>(p.cols) - 0.5, static_cast<double>(p.rows) - 0.5, -0.5);
    }
    set_palette(pls, p.scale.palette);
    draw_matrix(pls, p.rows, p.cols, p.values, p.scale.min, p.scale.max);
    pls.col0(kInk);
    pls.box(tokens_x ? "bc" : "bcnst", 0, 0, tokens_y ? "bc" : "bcnstv", 0, 0);
    for (std::size_t c = 0; c < p.col_labels.size(); ++c) {
        const double at = (static_cast<double>(c) + 0.5) / static_cast<double>(p.cols);
        if (upright_x)
            pls.mtex("bv", 0.5, at, 1.0, p.col_labels[c].c_str());
        else
            pls.mtex("b", 1.3, at, 0.5, p.col_labels[c].c_str());
    }
    for (std::size_t r = 0; r < p.row_labels.size(); ++r)
        pls.mtex("lv", 0.5, 1.0 - (static_cast<double>(r) + 0.5) / static_cast<double>(p.rows), 1.0, p.row_labels[r].c_str());
    title_and_labels(pls, p.title, p.x_label, bottom - 1.2, p.y_label, 0.62 * label_w + 2.0);
    if (!p.colour_bar) return;

    const double bx0 = x0 + mw + 1.2 * page.cx(), bx1 = bx0 + 1.6 * page.cx();
    pls.vpor(bx0, bx1, y0, y0 + mh);
    constexpr int kSteps = 64;  // the bar: a column of kSteps cells, min at the bottom
    std::vector<double> ramp(kSteps);
    for (int i = 0; i < kSteps; ++i)
        ramp[static_cast<std::size_t>(i)] = p.scale.min + (i + 0.5) / kSteps * (p.scale.max - p.scale.min);
    pls.wind(-0.5, 0.5, -0.5, kSteps - 0.5);
    draw_matrix(pls, kSteps, 1, ramp, p.scale.min, p.scale.max);
    pls.wind(-0.5, 0.5, p.scale.min, p.scale.max);
    pls.col0(kInk);
    pls.box("bc", 0, 0, "bcmstv", 0, 0);
    pls.mtex("r", 4.2, 0.5, 0.5, p.scale.label.c_str());
}

void draw(plstream& pls, const Page& page, const Box& cell, const BarChart& p) {
    const bool upright = widest(p.categories) > 3;
    const double left = 11.0, top = 2.2, right = 1.5;
    const double bottom = upright ? 0.62 * static_cast<double>(widest(p.categories)) + 2.8 : 4.4;
    pls.vpor(cell.x0 + left * page.cx(), cell.x1 - right * page.cx(), cell.y0 + bottom * page.cy(), cell.y1 - top * page.cy());
    auto [lo_it, hi_it] = std::minmax_element(p.values.begin(), p.values.end());
    double lo = std::min(0.0, *lo_it), hi = std::max(0.0, *hi_it);
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
    pls.box("bc", 0, 0, "bcnstv", 0, 0);
    for (std::size_t i = 0; i < p.categories.size(); ++i) {
        const double at = (static_cast<double>(i) + 0.5) / static_cast<double>(p.values.size());
        if (upright)
            pls.mtex("bv", 0.5, at, 1.0, p.categories[i].c_str());
        else
            pls.mtex("b", 1.3, at, 0.5, p.categories[i].c_str());
    }
    title_and_labels(pls, p.title, p.x_label, bottom - 1.2, p.y_label, 5.0);
}

}  // namespace

std::string render(const Figure& figure, Format format) {
    check(figure);
    PrivateFolder folder;
    const std::filesystem::path file = folder.path() / (format == Format::svg ? "figure.svg" : "figure.png");
    {
        plstream pls;
        pls.sdev(format == Format::svg ? "svg" : "pngcairo");
        pls.sfnam(file.c_str());
        pls.spage(0, 0, figure.width, figure.height, 0, 0);
        pls.scolbg(255, 255, 255);
        pls.scmap0n(kFirstCurve + kCurveColourCount);
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
        const Page page{xmax - xmin, ymax - ymin, ht};
        double top = 1.0;
        if (!figure.title.empty()) {
            pls.vpor(0, 1, 0, 1);
            pls.col0(kInk);
            pls.schr(0, 1.05);
            pls.mtex("t", -1.6, 0.5, 0.5, figure.title.c_str());
            pls.schr(0, text);
            top -= 2.6 * page.cy() * 1.05 / text;
        }
        const int columns = std::min<int>(figure.columns, static_cast<int>(figure.panels.size()));
        const int rows = (static_cast<int>(figure.panels.size()) + columns - 1) / columns;
        for (std::size_t i = 0; i < figure.panels.size(); ++i) {
            const int r = static_cast<int>(i) / columns, c = static_cast<int>(i) % columns;
            const Box cell{static_cast<double>(c) / columns, static_cast<double>(c + 1) / columns,
                           top * (1.0 - static_cast<double>(r + 1) / rows), top * (1.0 - static_cast<double>(r) / rows)};
            std::visit([&](const auto& p) { draw(pls, page, cell, p); }, figure.panels[i]);
        }
    }  // the stream's end writes and closes the file
    std::ifstream in(file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // PLplot does not report a failed write (a full disk, a file-size limit): a
    // drawing is whole only if it ends as its format ends.
    const bool whole = format == Format::svg ? bytes.find("</svg>") != std::string::npos
                                             : bytes.size() >= 12 && bytes.compare(bytes.size() - 8, 4, "IEND") == 0;
    if (!whole) throw Error(fmt::format("cannot draw \"{}\": the drawing could not be written whole to {}", figure.title, file.string()));
    return bytes;
}

}  // namespace plot
