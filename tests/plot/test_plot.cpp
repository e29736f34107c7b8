// The drawing module: every figure carries its title, axis labels, tick values,
// legend and colour-bar label as text (read back from the SVG), and data that
// cannot be drawn is refused with one line naming the panel.
#include <cmath>
#include <limits>

#include <catch2/catch.hpp>

#include "lectern/plot/figure.h"
#include "svg_text.h"

using testing::svg_shows;

namespace {

plot::LinePlot falling_loss() {
    plot::LinePlot p{"Loss", "training step", "cross-entropy", {}, false, true};
    plot::Curve train{"training", {}, {}}, held_out{"held-out", {}, {}, true};
    for (int i = 1; i <= 40; ++i) train.x.push_back(i), train.y.push_back(3.0 * std::pow(0.85, i));
    held_out.x = {20, 40}, held_out.y = {0.05, 0.001};
    p.curves = {train, held_out};
    return p;
}

plot::HeatMap attention() {
    plot::HeatMap m;
    m.title = "layer 0, head 1";
    m.x_label = "key token", m.y_label = "query token";
    m.rows = 3, m.cols = 3;
    m.values = {1, 0, 0, 0.5, 0.5, 0, 0.2, 0.3, 0.5};
    m.row_labels = {"a", "␣", "↵"}, m.col_labels = {"x", "y", "z"};
    m.scale = {0, 1, "attention weight", plot::Palette::sequential};
    return m;
}

}  // namespace

TEST_CASE("a line plot shows its title, labels, legend and log decades", "[plot]") {
    const std::string svg = plot::render({"Run", 1, 400, 300, {falling_loss()}}, plot::Format::svg);
    for (const char* words : {"Run", "Loss", "training step", "cross-entropy", "training", "held-out"})
        CHECK(svg_shows(svg, words));
    // 3 .. 0.001 spans the decades 10^-3 .. 10^1, each labelled
    for (const char* decade : {"10-3", "10-2", "10-1", "100", "101"}) CHECK(svg_shows(svg, decade));
    CHECK_FALSE(svg_shows(svg, "10-4"));
}

TEST_CASE("a heat map shows its tokens and a colour bar from 0 to 1", "[plot]") {
    const std::string svg = plot::render({"", 1, 400, 300, {attention()}}, plot::Format::svg);
    for (const char* words : {"layer 0, head 1", "key token", "query token", "a", "␣", "↵", "x", "y", "z",
                              "attention weight", "0.0", "0.2", "1.0"})
        CHECK(svg_shows(svg, words));
}

TEST_CASE("a bar chart names its bars", "[plot]") {
    const std::string svg = plot::render({"", 1, 400, 300, {plot::BarChart{"Routing", "expert", "tokens", {"e0", "e1"}, {3, 9}}}},
                                         plot::Format::svg);
    for (const char* words : {"Routing", "expert", "tokens", "e0", "e1"}) CHECK(svg_shows(svg, words));
}

TEST_CASE("a PNG is a whole PNG of the page's size", "[plot]") {
    const std::string png = plot::render({"", 1, 320, 200, {falling_loss()}}, plot::Format::png);
    REQUIRE(png.size() > 24);
    CHECK(png.substr(1, 3) == "PNG");
    auto be32 = [&](std::size_t at) {
        return (static_cast<unsigned char>(png[at]) << 24) | (static_cast<unsigned char>(png[at + 1]) << 16) |
               (static_cast<unsigned char>(png[at + 2]) << 8) | static_cast<unsigned char>(png[at + 3]);
    };
    CHECK(be32(16) == 320);  // IHDR: width, then height
    CHECK(be32(20) == 200);
}

TEST_CASE("data that cannot be drawn is refused in one line naming the panel", "[plot][errors]") {
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    auto refuses = [](plot::Panel panel, const std::string& why) {
        CHECK_THROWS_WITH(plot::render({"", 1, 400, 300, {std::move(panel)}}, plot::Format::svg), Catch::Contains(why));
    };
    plot::LinePlot loss = falling_loss();
    loss.curves[0].y[7] = nan;
    refuses(loss, "cannot draw \"Loss\": curve \"training\" holds nan");
    loss = falling_loss();
    loss.curves[1].y[0] = 0;  // a loss of 0 has no place on a log axis
    refuses(loss, "curve \"held-out\" has y = 0 on a log axis");
    refuses(plot::LinePlot{"Empty", "x", "y", {plot::Curve{"none", {}, {}}}}, "cannot draw \"Empty\": no points to plot");
    refuses(plot::LinePlot{"Ragged", "x", "y", {plot::Curve{"c", {1, 2}, {1}}}}, "has 2 x values and 1 y values");
    plot::HeatMap m = attention();
    m.values[4] = inf;
    refuses(m, "cannot draw \"layer 0, head 1\": the matrix holds inf");
    m = attention();
    m.row_labels.pop_back();
    refuses(m, "2 row labels for 3 rows");
    m = attention();
    m.rows = 0, m.values.clear();
    refuses(m, "a 0 x 3 matrix has nothing to plot");
    refuses(plot::BarChart{"Bars", "x", "y", {}, {}}, "cannot draw \"Bars\": no bars to plot");
    CHECK_THROWS_WITH(plot::render({"Nothing", 1, 400, 300, {}}, plot::Format::png), "cannot draw \"Nothing\": no panels");
}

TEST_CASE("a heat map draws every cell, the last row and column too", "[plot]") {
    // one row of two cells: 0 (white) and 1 (the palette's darkest blue, #07306B)
    plot::HeatMap m{"two cells", "key", "query", 1, 2, {0, 1}, {}, {}, {0, 1, "weight", plot::Palette::sequential}, false, {}};
    const std::string svg = plot::render({"", 1, 300, 200, {m}}, plot::Format::svg);
    CHECK(svg.find("fill=\"#07306B\"") != std::string::npos);
}
