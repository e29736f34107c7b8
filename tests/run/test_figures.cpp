// The programs' figures, drawn small: each SVG carries the words a student
// needs (titles, axis labels, the tokens drawn, the class names), and a figure
// reaches its files whole or not at all.
#include <sys/resource.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "check.h"
#include "lectern/run/figures/attention_figures.h"
#include "lectern/run/figures/expert_routing_figure.h"
#include "lectern/run/figures/figure_files.h"
#include "lectern/run/figures/loss_curve_figure.h"
#include "lectern/run/figures/vit_figures.h"
#include "svg_text.h"
#include "temp_files.h"

using namespace autograd;
using testing::svg_shows;
namespace fs = std::filesystem;

namespace {

std::string svg_of(plot::Figure figure) {
    figure.width = std::min(figure.width, 900), figure.height = std::min(figure.height, 700);
    return plot::render(figure, plot::Format::svg);
}

}  // namespace

TEST_CASE("the loss curve: both losses in a legend on labelled decades, the learning rate below", "[figures]") {
    run::LossCurves c{"copy_task: loss and learning rate",
                      {{1, 2.5}, {2, 0.9}, {3, 0.02}},
                      {{1, 1e-4}, {2, 5e-4}, {3, 1e-3}},
                      {{3, 0.03}},
                      "held-out loss per epoch"};
    const std::string svg = svg_of(run::loss_curve_figure(c));
    for (const char* words :
         {"copy_task: loss and learning rate", "training step", "loss (nats, log scale)", "training loss per step",
          "held-out loss per epoch", "learning rate", "0.02", "0.1", "0.5", "1", "2"})
        CHECK(svg_shows(svg, words));
    CHECK_FALSE(svg_shows(svg, "10"));  // 0.02 .. 2.5 is padded a few percent, not to the next decade
    c.loss[1].second = std::nan("");    // a diverged run is refused, not drawn blank
    CHECK_THROWS_WITH(svg_of(run::loss_curve_figure(c)), Catch::Contains("curve \"training loss per step\" holds nan"));
}

TEST_CASE("attention grids: a panel per layer and head, the real tokens on both axes", "[figures]") {
    Tensor a = softmax(arange(2 * 2 * 3 * 3, Dtype::float64).reshape({2, 1, 2, 3, 3}) * 0.1, -1);
    const std::vector<Tensor> layers = {select(a, 0, 0), select(a, 0, 1)};
    const std::string svg = svg_of(run::attention_grid("Self-attention", layers, {"h", " ", "\n"}, {"h", " ", "\n"}));
    for (const char* words : {"Self-attention", "layer 0, head 0", "layer 1, head 1", "query token", "key token", "h",
                              "␣", "↵", "attention weight", "1.0"})
        CHECK(svg_shows(svg, words));
    CHECK(run::visible_token("\t") == "⇥");
}

TEST_CASE("ViT figures: each rollout names its true and predicted class; the confusion matrix its classes",
          "[figures]") {
    Tensor image = arange(16, Dtype::float64).reshape({4, 4});
    Tensor rollout = tensor({0.1, 0.2, 0.3, 0.4}, Dtype::float64);
    const std::string svg =
        svg_of(run::rollout_figure({{image, rollout, "Coat", "Shirt"}, {image, rollout, "Bag", "Bag"}}));
    for (const char* words : {"Coat as Shirt", "Bag as Bag", "patch row", "patch column", "times the uniform 1/N"})
        CHECK(svg_shows(svg, words));
    const std::string confusion = svg_of(run::confusion_figure({{8, 2}, {1, 9}}, {"Ankle boot", "T-shirt/top"}));
    for (const char* words : {"Ankle boot", "T-shirt/top", "true class", "predicted class", "share of the true class"})
        CHECK(svg_shows(confusion, words));
}

TEST_CASE("a figure is written as PNG and SVG, or not at all", "[figures][io]") {
    const testing::TempDir tmp("figures");
    const fs::path& dir = tmp.path;
    const plot::Figure figure{"f", 1, 300, 200, {plot::BarChart{"b", "x", "y", {"a"}, {1}}}};
    const auto paths = run::write_figure((dir / "bars").string(), figure);
    REQUIRE(paths.size() == 2);
    std::ifstream png(paths[0], std::ios::binary), svg(paths[1]);
    CHECK(std::string(std::istreambuf_iterator<char>(png), {}).substr(1, 3) == "PNG");
    CHECK(svg_shows(std::string(std::istreambuf_iterator<char>(svg), {}), "b"));
    // A folder that is a file: the error names the file, nothing is left.
    std::ofstream(dir / "plain") << "x";
    CHECK_THROWS_WITH(run::write_figure((dir / "plain" / "bars").string(), figure),
                      Catch::Contains((dir / "plain" / "bars.png").string()));
    // Data that cannot be drawn writes neither file.
    plot::Figure bad = figure;
    std::get<plot::BarChart>(bad.panels[0]).values[0] = std::nan("");
    CHECK_THROWS_WITH(run::write_figure((dir / "bad").string(), bad), Catch::Contains("the bars holds nan"));
    CHECK_FALSE(fs::exists(dir / "bad.png"));
    CHECK_FALSE(fs::exists(dir / "bad.svg"));
    // A drawing PLplot could not finish (here a file-size limit) is an error, not a truncated file.
    testing::with_file_limit(2048, [&] {
        CHECK_THROWS_WITH(run::write_figure((dir / "cut").string(), figure),
                          Catch::Contains("could not be written whole"));
    });
    CHECK_FALSE(fs::exists(dir / "cut.png"));
}

TEST_CASE("the patch-embedding components: one direction of variance is all of it", "[figures]") {
    // 6 filters of a 2 x 2 patch, all multiples of (1, -1, 0, 0) plus a constant:
    // after centring, one component holds all the variance.
    std::vector<double> rows;
    for (double a : {-3.0, -1.0, 0.0, 1.0, 2.0, 4.0}) rows.insert(rows.end(), {0.5 + a, 0.5 - a, 0.5, 0.5});
    const std::string svg = svg_of(run::embedding_components_figure(tensor(rows, {6, 4}, Dtype::float64), 2, 2));
    for (const char* words : {"component 1 (100% of variance)", "component 2 (0% of variance)", "pixel row",
                              "pixel column", "weight in the component"})
        CHECK(svg_shows(svg, words));
}

TEST_CASE("expert routing: a curve per expert and the balanced share, in a legend", "[figures]") {
    std::vector<run::Curve> shares = {{{1, 0.7}, {2, 0.6}, {3, 0.5}}, {{1, 0.3}, {2, 0.4}, {3, 0.5}}};
    const std::string svg = svg_of(run::expert_routing_figure("char_lm: routing to 2 experts", shares));
    for (const char* words : {"char_lm: routing to 2 experts", "training step", "share of assignments", "expert 0",
                              "expert 1", "balanced: 1/2"})
        CHECK(svg_shows(svg, words));
    shares[1][1].second = std::nan("");
    CHECK_THROWS_WITH(svg_of(run::expert_routing_figure("t", shares)), Catch::Contains("curve \"expert 1\" holds nan"));
}
