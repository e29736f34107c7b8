// The drawing module: every figure carries its title, axis labels, tick values,
// legend and colour-bar label as text (read back from the SVG), and data that
// cannot be drawn is refused with one line naming the panel.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "lectern/plot/figure.h"
#include "lectern/plot/figure_layout.h"
#include "lectern/plot/line_layout.h"
#include "lectern/plot/log_axis.h"
#include "lectern/plot/raster.h"
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
    // 3 .. 0.001 spans three and a half decades, padded a few percent: 10^-3 .. 10^0 labelled,
    // and no empty decade beyond the data at either end
    for (const char* decade : {"10-3", "10-2", "10-1", "100"}) CHECK(svg_shows(svg, decade));
    CHECK_FALSE(svg_shows(svg, "10-4"));
    CHECK_FALSE(svg_shows(svg, "101"));
}

TEST_CASE("a log axis pads a few percent, and over less than two decades labels 1, 2 and 5 times each", "[plot]") {
    auto labels = [](const plot::LogAxis& a) {
        std::vector<std::string> out;
        for (const plot::Tick& t : a.ticks)
            if (!t.label.empty()) out.push_back(t.label);
        return out;
    };
    // a loss from 1.3 to 9 nats: 2 and 5 alone are too few, so every digit; the ends 4% out
    plot::LogAxis a = plot::log_axis(std::log10(1.3), std::log10(9.0));
    CHECK(labels(a) == std::vector<std::string>{"2", "3", "4", "5", "6", "7", "8", "9"});
    CHECK(a.lo == Approx(std::log10(1.3) - 0.04 * std::log10(9 / 1.3)).margin(1e-12));
    // 0.7 .. 30: 1, 2, 5, 10, 20
    a = plot::log_axis(std::log10(0.7), std::log10(30.0));
    CHECK(labels(a) == std::vector<std::string>{"1", "2", "5", "10", "20"});
    CHECK(a.hi - std::log10(30.0) < 0.1);  // not padded out to 10^2
    // 0.001 .. 3: powers of ten only, minor ticks between
    a = plot::log_axis(-3, std::log10(3.0));
    CHECK(labels(a) == std::vector<std::string>{"10#u-3#d", "10#u-2#d", "10#u-1#d", "10#u0#d"});
    CHECK(a.ticks.size() > 4);
    // 3.2 .. 3.9, within one decade and short of any 1-2-5 value: every digit fails too, so linear steps
    a = plot::log_axis(std::log10(3.2), std::log10(3.9));
    CHECK(labels(a).size() >= 3);
    for (const plot::Tick& t : a.ticks) {
        CHECK(t.at >= a.lo);
        CHECK(t.at <= a.hi);
    }
}

TEST_CASE("a legend's box covers no point and no line, else it stands beside the frame", "[plot]") {
    // a loss curve falling from the top left corner, its held-out points along it, and a
    // second set of points in the top right corner, where the legend used to go
    plot::LinePlot p = falling_loss();
    p.curves[1].x = {30, 35, 40}, p.curves[1].y = {2.5, 2.8, 3.0};
    const double char_mm = 3.0;
    const plot::LineLayout l = plot::line_layout(p, {0, 200, 0, 120}, char_mm);
    REQUIRE(l.legend);
    const plot::Rect& box = l.legend_box;
    CHECK(box.x1 - box.x0 > plot::text_width("held-out", char_mm));
    // every point of the data, projected here independently of the layout's own list
    auto page = [&](double x, double y) {
        return plot::Point{l.frame.x0 + (x - l.x0) / (l.x1 - l.x0) * (l.frame.x1 - l.frame.x0),
                           l.frame.y0 + (std::log10(y) - l.y0) / (l.y1 - l.y0) * (l.frame.y1 - l.frame.y0)};
    };
    for (const plot::Curve& c : p.curves)
        for (std::size_t i = 0; i < c.x.size(); ++i) {
            const plot::Point pt = page(c.x[i], c.y[i]);
            CHECK_FALSE((pt.x >= box.x0 && pt.x <= box.x1 && pt.y >= box.y0 && pt.y <= box.y1));
        }
    CHECK_FALSE(plot::covers(box, l.drawn));
    // it went to the top left's neighbour, not the crowded top right
    CHECK(box.x1 < l.frame.x1 - 1);
    // a frame crossed everywhere (a zigzag over its whole height): the legend goes beside it
    plot::LinePlot zigzag{"Zigzag", "x", "y", {plot::Curve{"up", {}, {}}, plot::Curve{"down", {}, {}}}};
    for (int i = 0; i <= 40; ++i) {
        zigzag.curves[0].x.push_back(i), zigzag.curves[0].y.push_back(i % 2);
        zigzag.curves[1].x.push_back(i + 0.5), zigzag.curves[1].y.push_back((i + 1) % 2);
    }
    const plot::LineLayout z = plot::line_layout(zigzag, {0, 200, 0, 120}, char_mm);
    CHECK(z.legend_box.x0 > z.frame.x1);
    CHECK(z.legend_box.x1 <= 200);
    CHECK_FALSE(plot::covers(z.legend_box, z.drawn));
    // names too long to stand beside a narrow frame: the legend goes under the x axis
    zigzag.curves[0].name = "the mean over four seeds, with one standard error each side";
    const plot::LineLayout u = plot::line_layout(zigzag, {0, 100, 0, 120}, char_mm);
    CHECK(u.legend_box.y1 < u.frame.y0);
    CHECK(u.legend_box.y0 >= 0);
    CHECK(u.frame.x1 - u.frame.x0 ==
          Approx(100 - 14 * 0.62 * char_mm));  // the frame kept its width (margins of 11 + 3 characters)
    CHECK_FALSE(plot::covers(u.legend_box, u.drawn));
}

namespace {

// Nine curves, three arms by three seeds, falling from the top left and spreading over the
// whole frame: a panel of a grid has no free place inside for their legend.
plot::LinePlot nine_seeds(int panel) {
    plot::LinePlot p{fmt::format("d_k = {}", 16 << (2 * panel)), "step", "training loss", {}, false, true};
    for (const char* arm : {"scaled", "unscaled", "additive"})
        for (int seed = 1; seed <= 3; ++seed) {
            plot::Curve c{fmt::format("{}, seed {}", arm, seed), {}, {}};
            const double floor = std::pow(10.0, -1.0 - seed - static_cast<double>(c.name.size() % 3));
            for (int step = 0; step <= 400; step += 10)
                c.x.push_back(step), c.y.push_back(floor + 3.0 * std::exp(-step * (0.01 + 0.004 * seed)));
            p.curves.push_back(c);
        }
    return p;
}

}  // namespace

TEST_CASE("a panel too small to hold its legend anywhere inside sets it outside the frame", "[plot]") {
    const double char_mm = 3.0;
    const plot::Rect cell{0, 100, 0, 60};
    const plot::LineLayout l = plot::line_layout(nine_seeds(0), cell, char_mm);
    REQUIRE(l.legend);
    const plot::Rect& box = l.legend_box;
    INFO("legend " << box.x0 << ".." << box.x1 << " x " << box.y0 << ".." << box.y1 << ", frame " << l.frame.x0 << ".."
                   << l.frame.x1 << " x " << l.frame.y0 << ".." << l.frame.y1);
    CHECK_FALSE(plot::covers(box, l.drawn));
    const bool apart = box.x0 >= l.frame.x1 || box.x1 <= l.frame.x0 || box.y0 >= l.frame.y1 || box.y1 <= l.frame.y0;
    CHECK(apart);
    CHECK(box.x0 >= cell.x0);
    CHECK(box.x1 <= cell.x1);
    CHECK(box.y0 >= cell.y0);
    CHECK(box.y1 <= cell.y1);
}

TEST_CASE("panels that share their series and have no room inside share one legend under them", "[plot]") {
    const plot::Figure f{"Three widths", 3, 1200, 420, {nine_seeds(0), nine_seeds(1), nine_seeds(2)}};
    const std::string svg = plot::render(f, plot::Format::svg);
    for (const plot::Curve& c : nine_seeds(0).curves) {
        const std::vector<std::string> texts = testing::svg_texts(svg);
        CHECK(std::count(texts.begin(), texts.end(), c.name) == 1);
    }
    // the layout: the legend under every panel's frame, within the page, and no panel draws its own
    // PLplot's page for 1200 x 420 pixels (72 to the inch), its characters 0.85 of 5.7 mm as render() sets them
    const double width_mm = 1200 / 72.0 * 25.4, height_mm = 420 / 72.0 * 25.4, char_mm = 0.85 * 5.715;
    const plot::FigureLayout layout = plot::figure_layout(f, width_mm, height_mm, char_mm);
    REQUIRE(layout.shared_legend);
    const plot::Rect& box = layout.legend.box;
    CHECK(box.y0 >= 0);
    CHECK(box.x0 >= 0);
    CHECK(box.x1 <= width_mm);
    for (std::size_t i = 0; i < f.panels.size(); ++i) {
        const plot::LineLayout l =
            plot::line_layout(std::get<plot::LinePlot>(f.panels[i]), layout.cells[i], char_mm, false);
        CHECK_FALSE(l.legend);
        CHECK(box.y1 < l.frame.y0);
    }
    // nine names in three rows of three: an arm per row, its seeds across
    CHECK(layout.legend.columns == 3);
}

TEST_CASE("a heat map shows its tokens and a colour bar from 0 to 1", "[plot]") {
    const std::string svg = plot::render({"", 1, 400, 300, {attention()}}, plot::Format::svg);
    for (const char* words : {"layer 0, head 1", "key token", "query token", "a", "␣", "↵", "x", "y", "z",
                              "attention weight", "0.0", "0.2", "1.0"})
        CHECK(svg_shows(svg, words));
}

TEST_CASE("a colour bar in a small panel labels values a line and a half apart, on a 1-2-5 step", "[plot]") {
    // eight heat maps of -1 .. 1 in a page of 1600 x 750: each bar, about 9 lines tall, holds five
    // values (a step of 0.5); a step of 0.2 would set eleven values on top of each other
    plot::Figure f{"Grid", 4, 1600, 750, {}};
    for (int k = 0; k < 8; ++k) {
        plot::HeatMap m = attention();
        m.scale = {-1, 1, "p(i,k)", plot::Palette::diverging};
        f.panels.push_back(m);
    }
    const std::string svg = plot::render(f, plot::Format::svg);
    for (const char* value : {"-1.0", "-0.5", "0.0", "0.5", "1.0"}) CHECK(svg_shows(svg, value));
    for (const char* value : {"-0.8", "-0.6", "0.2", "0.4"}) CHECK_FALSE(svg_shows(svg, value));
    // no tick crosses a bar's colours: every line of the page (drawn under y = 750 - y) stays out
    // of each bar's inside, the narrow embedded pictures
    std::vector<plot::Rect> bars;
    for (std::size_t at = svg.find("<image x=\""); at != std::string::npos; at = svg.find("<image x=\"", at + 1)) {
        double x = 0, y = 0, w = 0, h = 0;
        REQUIRE(std::sscanf(svg.c_str() + at, "<image x=\"%lf\" y=\"%lf\" width=\"%lf\" height=\"%lf\"", &x, &y, &w,
                            &h) == 4);
        if (w < h / 4) bars.push_back({x + 0.5, x + w - 0.5, y + 0.5, y + h - 0.5});
    }
    REQUIRE(bars.size() == 8);
    std::size_t crossing = 0;
    for (std::size_t at = svg.find("points=\""); at != std::string::npos; at = svg.find("points=\"", at + 1)) {
        std::vector<plot::Point> line;
        const char* c = svg.c_str() + at + 8;
        double x = 0, y = 0;
        for (int n = 0; std::sscanf(c, "%lf,%lf%n", &x, &y, &n) == 2; c += n) line.push_back({x, 750 - y});
        for (std::size_t i = 1; i < line.size(); ++i)
            for (const plot::Rect& bar : bars)
                crossing += plot::covers(bar, plot::Drawn{{{line[i - 1], line[i]}}, {}, 0});
    }
    CHECK(crossing == 0);
}

TEST_CASE("a title wider than its page or its panel shrinks to fit, the others keep their size", "[plot]") {
    // each <text>'s words with its font size and where its middle stands (text-anchor="middle")
    struct Placed {
        std::string words;
        double size, middle;
    };
    auto placed = [](const std::string& svg) {
        std::vector<Placed> out;
        const std::vector<std::string> words = testing::svg_texts(svg);
        std::size_t at = 0;
        for (const std::string& w : words) {
            at = svg.find("<text", at);
            double size = 0, a = 0, b = 0, c = 0, d = 0, e = 0;
            std::sscanf(svg.c_str() + svg.find("font-size=\"", at), "font-size=\"%lf\"", &size);
            std::sscanf(svg.c_str() + svg.find("matrix(", at), "matrix(%lf %lf %lf %lf %lf", &a, &b, &c, &d, &e);
            out.push_back({w, size, e});
            ++at;
        }
        return out;
    };
    auto find = [&](const std::vector<Placed>& all, const std::string& words) {
        for (const Placed& p : all)
            if (p.words == words) return p;
        FAIL("no text \"" << words << "\"");
        return Placed{};
    };
    const std::string wide =
                          "Generation recomputed, with 000's cache of inputs and with the key/value cache "
                          "(GPT, 4 layers, d_model 128, 4 heads)",
                      short_title = "Loss";
    plot::LinePlot left = falling_loss(), right = falling_loss();
    left.title = short_title, right.title = "Validation perplexity (no smoothing), mean over every seed we ran";
    const std::vector<Placed> texts = placed(plot::render({wide, 2, 800, 300, {left, right}}, plot::Format::svg));
    const std::vector<Placed> fitting = placed(plot::render({"Run", 2, 800, 300, {left, left}}, plot::Format::svg));
    const Placed figure_title = find(texts, wide), panel = find(texts, right.title), other = find(texts, short_title);
    CHECK(figure_title.size < 0.8 * find(fitting, "Run").size);
    CHECK(panel.size < 0.8 * other.size);
    // the panel's title centred on its frame, in the right half of the page
    CHECK(panel.middle > 400);
    CHECK(other.size == Approx(find(texts, "training step").size));  // a title that fits keeps the axes' size
}

TEST_CASE("a bar chart names its bars", "[plot]") {
    const std::string svg =
        plot::render({"", 1, 400, 300, {plot::BarChart{"Routing", "expert", "tokens", {"e0", "e1"}, {3, 9}}}},
                     plot::Format::svg);
    for (const char* words : {"Routing", "expert", "tokens", "e0", "e1"}) CHECK(svg_shows(svg, words));
}

TEST_CASE("a bar chart's axis reaches the top of its error bars", "[plot]") {
    // Bars of 3 and 9 alone end the axis near 9.5, ticks 0, 2, ..., 8; a whisker of 6 on the 9
    // reaches 15, and the axis with it (ticks 0, 5, 10, 15).
    plot::BarChart bars{"Accuracy", "arm", "%", {"a", "b"}, {3, 9}};
    CHECK_FALSE(svg_shows(plot::render({"", 1, 400, 300, {bars}}, plot::Format::svg), "15"));
    bars.error = {1, 6};
    CHECK(svg_shows(plot::render({"", 1, 400, 300, {bars}}, plot::Format::svg), "15"));
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
    refuses(plot::LinePlot{"Empty", "x", "y", {plot::Curve{"none", {}, {}}}},
            "cannot draw \"Empty\": no points to plot");
    refuses(plot::LinePlot{"Ragged", "x", "y", {plot::Curve{"c", {1, 2}, {1}}}}, "has 2 x values and 1 y values");
    plot::HeatMap m = attention();
    m.values[4] = inf;
    refuses(m, "cannot draw \"layer 0, head 1\": the matrix holds inf");
    m = attention();
    m.row_labels.pop_back();
    refuses(m, "2 row labels for 3 rows");
    m = attention();
    m.masked = {true, false};
    refuses(m, "a mask of 2 cells for a 3 x 3 matrix");
    loss = falling_loss();
    loss.curves[1].error = {0.1};
    refuses(loss, "curve \"held-out\" has 1 error bars for 2 points");
    m = attention();
    m.rows = 0, m.values.clear();
    refuses(m, "a 0 x 3 matrix has nothing to plot");
    refuses(plot::BarChart{"Bars", "x", "y", {}, {}}, "cannot draw \"Bars\": no bars to plot");
    refuses(plot::BarChart{"Bars", "x", "y", {"a", "b"}, {1, 2}, {0.1}},
            "cannot draw \"Bars\": 1 error bars for 2 bars");
    refuses(plot::BarChart{"Bars", "x", "y", {"a"}, {1}, {nan}}, "the error bars holds nan");
    CHECK_THROWS_WITH(plot::render({"Nothing", 1, 400, 300, {}}, plot::Format::png),
                      "cannot draw \"Nothing\": no panels");
}

TEST_CASE("a heat map draws every cell, the last row and column too, masked ones grey", "[plot]") {
    // one row of three cells: 0 (white), masked, and 1 (the palette's darkest blue, #07306B)
    plot::HeatMap m{"three cells", "key", "query", 1, 3, {0, 0, 1}, {}, {}, {0, 1, "weight", plot::Palette::sequential},
                    false,         {}};
    m.masked = {false, true, false};
    const plot::Raster r = plot::heat_map_raster(m);
    REQUIRE(r.pixels.size() == 3);
    CHECK(r.pixels[0] == plot::Rgb{255, 255, 255});
    CHECK(r.pixels[1] == plot::kMaskedGrey);
    CHECK(r.pixels[2] == plot::Rgb{8, 48, 107});
    // the SVG embeds the cells as one PNG picture of 3 x 1 pixels
    const std::string svg = plot::render({"", 1, 300, 200, {m}}, plot::Format::svg);
    CHECK(svg.find("<image") != std::string::npos);
    CHECK(svg.find("data:image/png;base64,") != std::string::npos);
}

TEST_CASE("a grid of heat maps as SVG is within twice its PNG, its words still text", "[plot]") {
    // twelve 24 x 24 attention panels with a token per row and column, as char_lm draws them
    plot::Figure f{"Causal self-attention", 4, 1600, 1100, {}, 0.6};
    for (int k = 0; k < 12; ++k) {
        plot::HeatMap m = attention();
        m.title = fmt::format("layer {}, head {}", k / 4, k % 4);
        m.rows = m.cols = 24;
        m.values.clear(), m.row_labels.clear(), m.col_labels.clear();
        for (int i = 0; i < 24 * 24; ++i) m.values.push_back(std::fmod(0.37 * i * (k + 1), 1.0));
        for (int i = 0; i < 24; ++i)
            m.row_labels.push_back(std::string(1, static_cast<char>('a' + i))),
                m.col_labels.push_back(m.row_labels.back());
        f.panels.push_back(m);
    }
    const std::string svg = plot::render(f, plot::Format::svg), png = plot::render(f, plot::Format::png);
    INFO("SVG " << svg.size() << " bytes, PNG " << png.size());
    CHECK(svg.size() < 2 * png.size());
    CHECK(svg_shows(svg, "layer 2, head 3"));
    CHECK(svg_shows(svg, "Causal self-attention"));
    CHECK(svg.find("&#x43;") == std::string::npos);  // text as UTF-8, not a reference per letter
}

TEST_CASE("dashed lines in an SVG are whole polylines with a dash array, within twice the PNG", "[plot]") {
    plot::LinePlot p{"Routing", "step", "share", {}};
    for (int k = 0; k < 4; ++k) {
        plot::Curve c{fmt::format("expert {}", k), {}, {}};
        for (int i = 0; i < 400; ++i) c.x.push_back(i), c.y.push_back(0.25 + 0.2 * std::sin(0.3 * i + k));
        p.curves.push_back(c);
    }
    const plot::Figure f{"", 1, 800, 500, {p}};
    const std::string svg = plot::render(f, plot::Format::svg), png = plot::render(f, plot::Format::png);
    INFO("SVG " << svg.size() << " bytes, PNG " << png.size());
    CHECK(svg.find("stroke-dasharray") != std::string::npos);
    CHECK(svg.size() < 2 * png.size());
}

TEST_CASE("a confusion matrix writes each share in its cell", "[plot]") {
    plot::HeatMap m{"Confusion", "predicted", "true",
                    2,           2,           {0.75, 0.25, 0.1, 0.9},
                    {"a", "b"},  {"a", "b"},  {0, 1, "share", plot::Palette::sequential},
                    true,        {}};
    m.cell_values = true;
    const std::string svg = plot::render({"", 1, 400, 300, {m}}, plot::Format::svg);
    for (const char* v : {"0.75", "0.25", "0.10", "0.90"}) CHECK(svg_shows(svg, v));
}
