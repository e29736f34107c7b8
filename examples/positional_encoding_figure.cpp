// The sinusoidal positional encodings as pictures (004 §15.5.3 eq. 15.57,
// p_{i,2j} = sin(i / C^{2j/d}), p_{i,2j+1} = cos(i / C^{2j/d}), C = 10000), from
// the table nn::SinusoidalPositionalEncoding adds to the embeddings:
//   DIR/positional_encoding_matrix   P with positions down and dimensions across (004 Fig. 15.25a)
//   DIR/positional_encoding_columns  columns 6 to 9 of P against the position (004 Fig. 15.25b)
//   DIR/positional_encoding_shift    p_t . p_{t+phi} against phi for several t: the curves coincide,
//                                    because the product depends on the shift phi only
//   ./build/examples/positional_encoding_figure                       n = 60, d = 32 into figures/
//   ./build/examples/positional_encoding_figure --positions 200 --d-model 128 --figures pe
#include <string>

#include <fmt/format.h>

#include "lectern/autograd/autograd.h"
#include "lectern/run/figures/figure_files.h"
#include "lectern/run/flags/flags.h"
#include "lectern/run/shell/output_files.h"
#include "lectern/nn/sinusoidal_positional_encoding.h"
#include "lectern/plot/figure.h"

namespace {

using autograd::Tensor;

plot::Figure matrix_figure(const Tensor& P) {
    plot::HeatMap m;
    m.title = fmt::format("Positional encoding matrix P ({} positions x {} dimensions)", P.size(0), P.size(1));
    m.x_label = "dimension k (even: sin, odd: cos)";
    m.y_label = "position i";
    m.rows = P.size(0), m.cols = P.size(1);
    m.values = P.to_vector();
    m.scale = {-1, 1, "p(i,k)", plot::Palette::diverging};
    return plot::Figure{"", 1, 640, 820, {m}};
}

plot::Figure columns_figure(const Tensor& P) {
    plot::LinePlot lines{"Columns of P: a sinusoid per dimension, slower to the right",
                         "position i",
                         "p(i,k)",
                         {},
                         false,
                         false};
    for (std::int64_t k = 6; k <= 9 && k < P.size(1); ++k) {
        plot::Curve c{fmt::format("dimension k = {} ({})", k, k % 2 == 0 ? "sin" : "cos"), {}, {}};
        for (std::int64_t i = 0; i < P.size(0); ++i) c.x.push_back(static_cast<double>(i)), c.y.push_back(P.at({i, k}));
        lines.curves.push_back(std::move(c));
    }
    return plot::Figure{"", 1, 800, 480, {lines}};
}

// p_t . p_{t+phi} = sum_j cos(phi / C^{2j/d}): the same curve whatever t is.
plot::Figure shift_figure(const Tensor& P, std::int64_t positions) {
    plot::LinePlot lines{"Shift property: p(t) . p(t+phi) depends on phi only",
                         "shift phi",
                         "p(t) . p(t+phi)",
                         {},
                         false,
                         false};
    for (std::int64_t t : {std::int64_t{0}, positions / 3, 2 * positions / 3}) {
        plot::Curve c{fmt::format("t = {}", t), {}, {}, t != 0};
        for (std::int64_t phi = 0; phi < positions; ++phi) {
            double dot = 0;
            for (std::int64_t k = 0; k < P.size(1); ++k) dot += P.at({t, k}) * P.at({t + phi, k});
            c.x.push_back(static_cast<double>(phi)), c.y.push_back(dot);
        }
        lines.curves.push_back(std::move(c));
    }
    return plot::Figure{"", 1, 800, 480, {lines}};
}

}  // namespace

int main(int argc, char** argv) {
    std::int64_t positions = 60, d_model = 32;
    std::string dir = "figures";
    CLI::App app{
        "Draws the sinusoidal positional encodings (004 eq. 15.57): the matrix P, columns 6 to 9, and the "
        "shift property, each as PNG and SVG."};
    app.add_option("--positions", positions, "positions 0 .. n-1 (004 Fig. 15.25: n = 60)")
        ->check(CLI::Range(10, 2000));
    app.add_option("--d-model", d_model, "the encoding's width d (004 Fig. 15.25: d = 32)")
        ->check(CLI::Range(10, 1024));
    app.add_option("--figures", dir, "the folder to draw into")->check(run::path_value());
    if (int status = run::parse_flags(app, argc, argv, "positional_encoding_figure",
                                      [&] { run::check_output_folder("--figures", dir); });
        status >= 0)
        return status;
    try {
        // twice the positions drawn, so p_{t+phi} exists for every t and phi of the shift figure
        nn::SinusoidalPositionalEncoding pe(d_model, 0.0, 2 * positions);
        const Tensor P = pe.table.to(autograd::Dtype::float64);
        for (const auto& [name, figure] :
             {std::pair{"positional_encoding_matrix", matrix_figure(narrow(P, 0, 0, positions))},
              std::pair{"positional_encoding_columns", columns_figure(narrow(P, 0, 0, positions))},
              std::pair{"positional_encoding_shift", shift_figure(P, positions)}})
            for (const std::string& path : run::write_figure(dir + "/" + name, figure)) fmt::print("{}\n", path);
    } catch (const std::exception& e) {
        fmt::print(stderr, "positional_encoding_figure: {}\n", e.what());
        return 1;
    }
    return 0;
}
