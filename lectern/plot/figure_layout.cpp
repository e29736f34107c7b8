#include "lectern/plot/figure_layout.h"

#include <algorithm>
#include <cmath>

namespace plot {

namespace {

// The cells of a grid `columns` wide filling the box, left to right then down.
std::vector<Rect> grid(std::size_t panels, int columns, const Rect& box) {
    const int cols = std::max(1, std::min<int>(columns, static_cast<int>(panels)));
    const int rows = (static_cast<int>(panels) + cols - 1) / cols;
    const double w = (box.x1 - box.x0) / cols, h = (box.y1 - box.y0) / rows;
    std::vector<Rect> cells;
    for (std::size_t i = 0; i < panels; ++i) {
        const int r = static_cast<int>(i) / cols, c = static_cast<int>(i) % cols;
        cells.push_back({box.x0 + c * w, box.x0 + (c + 1) * w, box.y1 - (r + 1) * h, box.y1 - r * h});
    }
    return cells;
}

// Whether every panel is a line plot with the first one's curve names and kinds (line or marks),
// at least two of them: then one legend can name every panel's curves.
bool same_curves(const std::vector<Panel>& panels) {
    if (panels.size() < 2) return false;
    const auto* first = std::get_if<LinePlot>(&panels.front());
    if (first == nullptr || first->curves.size() < 2) return false;
    for (const Panel& panel : panels) {
        const auto* p = std::get_if<LinePlot>(&panel);
        if (p == nullptr || p->curves.size() != first->curves.size()) return false;
        for (std::size_t k = 0; k < p->curves.size(); ++k)
            if (p->curves[k].name != first->curves[k].name || p->curves[k].markers != first->curves[k].markers)
                return false;
    }
    return true;
}

// Columns for n entries of which at most `fit` stand side by side: a full grid of at most four
// rows when one fits (nine runs read as three rows of three: a family of curves to a row),
// else as few rows as fit.
int legend_columns(std::size_t n, int fit) {
    fit = std::clamp(fit, 1, static_cast<int>(n));
    for (int c = fit; c >= 1; --c)
        if (n % static_cast<std::size_t>(c) == 0 && n / static_cast<std::size_t>(c) <= 4) return c;
    const std::size_t rows = (n + static_cast<std::size_t>(fit) - 1) / static_cast<std::size_t>(fit);
    return static_cast<int>((n + rows - 1) / rows);
}

}  // namespace

FigureLayout figure_layout(const Figure& figure, double width_mm, double height_mm, double char_mm) {
    FigureLayout out;
    const double top = figure.title.empty() ? height_mm : height_mm - 2.6 * 1.3 * char_mm;
    const Rect panels{0, width_mm, 0, top};
    out.cells = grid(figure.panels.size(), figure.columns, panels);
    if (!same_curves(figure.panels)) return out;
    bool crowded = false;
    for (std::size_t i = 0; i < figure.panels.size(); ++i)
        crowded = crowded || !legend_fits_inside(std::get<LinePlot>(figure.panels[i]), out.cells[i], char_mm);
    if (!crowded) return out;

    const LinePlot& first = std::get<LinePlot>(figure.panels.front());
    const std::size_t n = first.curves.size();
    SharedLegend& l = out.legend;
    l.column = legend_entry_width(first, char_mm);
    l.row = legend_row_height(char_mm);
    const double margin = 1.5 * char_mm;
    l.columns = legend_columns(n, static_cast<int>(std::floor((width_mm - 2 * margin) / l.column)));
    const double w = l.column * l.columns, h = legend_height(n, l.columns, char_mm);
    const double bottom = 0.4 * char_mm;
    l.box = {(width_mm - w) / 2, (width_mm + w) / 2, bottom, bottom + h};
    out.shared_legend = true;
    out.cells = grid(figure.panels.size(), figure.columns, {0, width_mm, bottom + h + 0.4 * char_mm, top});
    return out;
}

}  // namespace plot
