#pragma once
// A figure a student reads without the code: every panel has a title, axis
// labels and tick values; a heat map has a colour bar saying what a colour
// means; several curves have a legend. A Figure only describes what to draw;
// render() draws it with PLplot into PNG or SVG bytes, so the caller decides
// where the bytes go (the programs write them as every output is written).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace plot {

// What cannot be drawn (a NaN, nothing to plot, a log axis reaching 0): one line
// naming the panel and the reason.
struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Curve {
    std::string name;  // the legend's entry
    std::vector<double> x, y;
    bool markers = false;         // a symbol at each point instead of a line (a value per epoch); each
                                  // marked curve gets its own shape, so curves that coincide stay visible
    std::vector<double> error{};  // empty, or one per point: a bar from y - error to y + error
    int colour = -1, dash = -1;   // the palette's colour and the line's dash pattern (or mark's shape) by number,
                                  // for curves of one family in one colour; -1: the next in turn
};

// Curves on shared axes, the first line solid and the others dashed (a line
// lying on another lets it show); a legend when there is more than one curve, placed
// where its box covers no point and no line (line_layout.h), else beside the panel.
struct LinePlot {
    std::string title, x_label, y_label;
    std::vector<Curve> curves;
    bool log_x = false, log_y = false;  // every value must then be > 0; ticks as log_axis.h chooses them
};

enum class Palette {
    sequential,  // white at min to dark blue at max: more is darker
    diverging,   // blue at min, white in the middle, red at max: the sign shows
    grey,        // black to white: a photograph
    spotlight,   // over a picture: the picture dimmed to a dark blue at min, shown in warm white at max
};

struct ColourScale {
    double min = 0, max = 1;  // values outside are drawn at the nearest end
    std::string label;        // what a colour means, written beside the colour bar
    Palette palette = Palette::sequential;
};

// A grey picture under a heat map (the image a ViT's attention is laid over).
struct Picture {
    std::int64_t rows = 0, cols = 0;
    std::vector<double> pixels;  // row-major, row 0 at the top; shown min..max as black..white
};

// A matrix, row 0 at the top. Tick labels: one per row and per column (the
// tokens), or none for numbered axes counting from 0.
struct HeatMap {
    std::string title, x_label, y_label;
    std::int64_t rows = 0, cols = 0;
    std::vector<double> values;  // row-major
    std::vector<std::string> row_labels, col_labels;
    ColourScale scale;
    bool colour_bar = true;
    Picture under;  // empty, or shown through the heat map: each pixel its grey times its cell's colour
    std::vector<bool>
        masked{};              // empty, or rows x cols: true where a cell is masked out (drawn grey, its value unused)
    bool cell_values = false;  // each cell's value written in it, two decimals
};

// One bar per category, its name under it (flat when the names fit, else upright).
struct BarChart {
    std::string title, x_label, y_label;
    std::vector<std::string> categories;
    std::vector<double> values;
    std::vector<double> error{};  // empty, or one per bar: a whisker from value - error to value + error
};

using Panel = std::variant<LinePlot, HeatMap, BarChart>;

// Panels fill a grid `columns` wide, left to right then down, under the figure's title.
struct Figure {
    std::string title;
    int columns = 1;
    int width = 800, height = 500;  // PNG pixels; SVG points
    std::vector<Panel> panels;
    double text_size = 1.0;  // PLplot's character height, scaled: below 1 for grids of small panels;
                             // the figure's title is drawn 1.3 times as tall as the panels' text
};

enum class Format { png, svg };

// Throws plot::Error if any panel cannot be drawn.
void check(const Figure& figure);

// The figure drawn as a PNG or SVG file's bytes; checks it first. In an SVG the
// text stays text (UTF-8) and each heat map is one embedded PNG of its cells.
std::string render(const Figure& figure, Format format);

}  // namespace plot
