#include "lectern/run/figures/figure_files.h"

#include "lectern/run/shell/output_files.h"

namespace run {

std::vector<std::string> write_figure(const std::string& stem, const plot::Figure& figure) {
    // both drawn before either is written: a figure that cannot be drawn writes nothing
    const std::string png_bytes = plot::render(figure, plot::Format::png),
                      svg_bytes = plot::render(figure, plot::Format::svg);
    const std::string png = stem + ".png", svg = stem + ".svg";
    write_output(png, png_bytes);
    write_output(svg, svg_bytes);
    return {png, svg};
}

}  // namespace run
