#include <cmath>
#include <string>

#include <fmt/format.h>

#include "lectern/plot/figure.h"

namespace plot {

namespace {

template <class P>
[[noreturn]] void fail(const P& panel, const std::string& why) {
    throw Error(fmt::format("cannot draw \"{}\": {}", panel.title, why));
}

template <class P>
void check_finite(const P& panel, const std::vector<double>& values, const char* what) {
    for (double v : values)
        if (!std::isfinite(v)) fail(panel, fmt::format("{} holds {}", what, v));
}

void check_panel(const LinePlot& p) {
    std::size_t points = 0;
    for (const Curve& c : p.curves) {
        if (c.x.size() != c.y.size())
            fail(p, fmt::format("curve \"{}\" has {} x values and {} y values", c.name, c.x.size(), c.y.size()));
        check_finite(p, c.x, ("curve \"" + c.name + "\"").c_str());
        check_finite(p, c.y, ("curve \"" + c.name + "\"").c_str());
        for (double v : c.x)
            if (p.log_x && v <= 0) fail(p, fmt::format("curve \"{}\" has x = {} on a log axis", c.name, v));
        for (double v : c.y)
            if (p.log_y && v <= 0) fail(p, fmt::format("curve \"{}\" has y = {} on a log axis", c.name, v));
        if (!c.error.empty() && c.error.size() != c.y.size())
            fail(p, fmt::format("curve \"{}\" has {} error bars for {} points", c.name, c.error.size(), c.y.size()));
        check_finite(p, c.error, ("the error bars of \"" + c.name + "\"").c_str());
        points += c.x.size();
    }
    if (points == 0) fail(p, "no points to plot");
}

void check_panel(const HeatMap& p) {
    if (p.rows <= 0 || p.cols <= 0) fail(p, fmt::format("a {} x {} matrix has nothing to plot", p.rows, p.cols));
    if (p.values.size() != static_cast<std::size_t>(p.rows * p.cols))
        fail(p, fmt::format("{} values for a {} x {} matrix", p.values.size(), p.rows, p.cols));
    check_finite(p, p.values, "the matrix");
    if (!p.row_labels.empty() && p.row_labels.size() != static_cast<std::size_t>(p.rows))
        fail(p, fmt::format("{} row labels for {} rows", p.row_labels.size(), p.rows));
    if (!p.col_labels.empty() && p.col_labels.size() != static_cast<std::size_t>(p.cols))
        fail(p, fmt::format("{} column labels for {} columns", p.col_labels.size(), p.cols));
    if (!p.masked.empty() && p.masked.size() != static_cast<std::size_t>(p.rows * p.cols))
        fail(p, fmt::format("a mask of {} cells for a {} x {} matrix", p.masked.size(), p.rows, p.cols));
    if (!(std::isfinite(p.scale.min) && std::isfinite(p.scale.max) && p.scale.min < p.scale.max))
        fail(p, fmt::format("the colour scale {} .. {} is not an interval", p.scale.min, p.scale.max));
    if (p.under.rows != 0 || p.under.cols != 0 || !p.under.pixels.empty()) {
        if (p.under.rows <= 0 || p.under.cols <= 0 ||
            p.under.pixels.size() != static_cast<std::size_t>(p.under.rows * p.under.cols))
            fail(p, fmt::format("{} pixels for a {} x {} picture", p.under.pixels.size(), p.under.rows, p.under.cols));
        check_finite(p, p.under.pixels, "the picture");
    }
}

void check_panel(const BarChart& p) {
    if (p.values.empty()) fail(p, "no bars to plot");
    if (p.categories.size() != p.values.size())
        fail(p, fmt::format("{} categories for {} bars", p.categories.size(), p.values.size()));
    check_finite(p, p.values, "the bars");
    if (!p.error.empty() && p.error.size() != p.values.size())
        fail(p, fmt::format("{} error bars for {} bars", p.error.size(), p.values.size()));
    check_finite(p, p.error, "the error bars");
}

}  // namespace

void check(const Figure& figure) {
    if (figure.panels.empty()) throw Error(fmt::format("cannot draw \"{}\": no panels", figure.title));
    if (figure.columns < 1) throw Error(fmt::format("cannot draw \"{}\": {} columns", figure.title, figure.columns));
    if (figure.width < 64 || figure.height < 64 || figure.width > 20000 || figure.height > 20000)
        throw Error(fmt::format("cannot draw \"{}\": a {} x {} page", figure.title, figure.width, figure.height));
    for (const Panel& panel : figure.panels) std::visit([](const auto& p) { check_panel(p); }, panel);
}

}  // namespace plot
