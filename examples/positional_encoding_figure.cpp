// The sinusoidal positional-encoding matrix as a picture (004 §15.5.3, its
// figure of P): rows are positions i, columns the dimensions k of
// p_{i,2j} = sin(i / C^{2j/d}), p_{i,2j+1} = cos(i / C^{2j/d}). The table is
// the one nn::SinusoidalPositionalEncoding adds to the embeddings.
//   ./build/examples/positional_encoding_figure                      figures/positional_encoding.png
//   ./build/examples/positional_encoding_figure --positions 200 --d-model 128 --out pe.png
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "autograd/autograd.h"
#include "examples/flags.h"
#include "examples/heatmap_png.h"
#include "examples/output_files.h"
#include "nn/sinusoidal_positional_encoding.h"

int main(int argc, char** argv) {
    std::int64_t positions = 100, d_model = 64;
    int scale = 4;
    std::string out = "figures/positional_encoding.png";
    CLI::App app{"Draws the sinusoidal positional-encoding matrix P (004 eq. 15.57) as a heat map: blue -1, white 0, red +1."};
    app.add_option("--positions", positions, "rows: positions 0 .. N-1")->check(CLI::Range(1, 5000));
    app.add_option("--d-model", d_model, "columns: the encoding's width d")->check(CLI::Range(2, 4096));
    app.add_option("--scale", scale, "pixels per matrix entry")->check(CLI::Range(1, 32));
    app.add_option("--out", out, "the PNG to write")->check(examples::path_value());
    if (int status = examples::parse_flags(app, argc, argv, "positional_encoding_figure", [&] {
            const std::string folder = std::filesystem::path(out).parent_path().string();
            if (!folder.empty()) examples::check_output_folder("--out", folder);
            examples::check_output_file("--out", out);
        });
        status >= 0)
        return status;
    try {
        nn::SinusoidalPositionalEncoding pe(d_model, 0.0, positions);
        examples::write_heatmap_png(out, pe.table, scale);
        fmt::print("positional encodings P [{} positions x {} dims] written to {}\n", positions, d_model, out);
    } catch (const std::exception& e) {
        fmt::print(stderr, "positional_encoding_figure: {}\n", e.what());
        return 1;
    }
    return 0;
}
