// A label is text, never PLplot's markup. A token
// or category holding '#' ('#(' with no ')' after it hung text_width for
// good; '#u', '##' and '#[0x110000]' were drawn as PLplot's escapes) is drawn
// as it is spelt, in an SVG that stays well-formed, with nothing on stderr.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "lectern/plot/figure.h"
#include "lectern/plot/line_layout.h"
#include "svg_text.h"
#include "temp_files.h"

namespace {

// What `f` prints on stderr (PLplot's and Pango's warnings go there).
template <class F>
std::string stderr_of(F f) {
    testing::TempDir dir("hostile-labels");
    const std::string path = dir.file("stderr");
    std::fflush(stderr);
    const int saved = ::dup(2), file = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    REQUIRE((saved >= 0 && file >= 0));
    ::dup2(file, 2);
    ::close(file);
    f();
    std::fflush(stderr);
    ::dup2(saved, 2);
    ::close(saved);
    return testing::read_all(path);
}

// The first offset at which `text` is not UTF-8 of characters XML allows, or npos.
std::size_t first_non_xml(const std::string& text) {
    for (std::size_t i = 0; i < text.size();) {
        const auto b = static_cast<unsigned char>(text[i]);
        const std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
        if (n == 0 || i + n > text.size()) return i;
        unsigned long code = n == 1 ? b : b & (0x7F >> n);
        for (std::size_t k = 1; k < n; ++k) {
            const auto c = static_cast<unsigned char>(text[i + k]);
            if ((c & 0xC0) != 0x80) return i;
            code = (code << 6) | (c & 0x3F);
        }
        const bool allowed = code == 0x9 || code == 0xA || code == 0xD || (code >= 0x20 && code <= 0xD7FF) ||
                             (code >= 0xE000 && code <= 0xFFFD) || (code >= 0x10000 && code <= 0x10FFFF);
        if (!allowed) return i;
        i += n;
    }
    return std::string::npos;
}

}  // namespace

TEST_CASE("a label's width is measured in bounded time when '#(' has no ')' after it", "[plot][hostile]") {
    // Clojure's "#(" as a BPE subword, and a category named "a#(b": each once looped for ever.
    CHECK(plot::text_width("#(", 1.0) == Approx(2 * plot::text_width("a", 1.0)));
    CHECK(plot::text_width("a#(b", 1.0) == Approx(4 * plot::text_width("a", 1.0)));
    // PLplot's own markup keeps its widths: a doubled '#' is one character, a superscript switch none
    CHECK(plot::text_width("##", 1.0) == Approx(plot::text_width("a", 1.0)));
    CHECK(plot::text_width("10#u3#d", 1.0) == Approx(3 * plot::text_width("a", 1.0)));
}

TEST_CASE("labels holding '#' are drawn as they are spelt, the SVG well-formed, nothing on stderr", "[plot][hostile]") {
    const std::vector<std::string> names = {"a#(b", "x#u2#d", "##", "#", "#[0x110000]", "(map #(* % 2) xs)"};
    plot::BarChart bars{"counts of #", "token #", "#u count", names, {1, 2, 3, 4, 5, 6}};
    plot::HeatMap map;
    map.title = "attention", map.x_label = "key", map.y_label = "query";
    map.rows = 2, map.cols = 2, map.values = {1, 0, 0.5, 0.5};
    map.row_labels = {"#(", "#d"}, map.col_labels = {"#[0x41]", "b#"};
    map.scale = {0, 1, "weight #1", plot::Palette::sequential};
    plot::LinePlot line{"loss",
                        "step",
                        "nats",
                        {plot::Curve{"run #1", {1, 2}, {2, 1}}, plot::Curve{"#d", {1, 2}, {3, 2}}}};
    std::string svg;
    const std::string warnings = stderr_of([&] {
        svg = plot::render({"figure #(1", 3, 900, 300, {bars, map, line}}, plot::Format::svg);
    });
    CHECK(warnings == "");
    for (const std::string& words : names) CHECK(testing::svg_shows(svg, words));
    for (const char* words :
         {"counts of #", "token #", "#u count", "#(", "#d", "#[0x41]", "b#", "weight #1", "run #1", "figure #(1"})
        CHECK(testing::svg_shows(svg, words));
    const std::size_t bad = first_non_xml(svg);
    INFO("at byte " << bad);
    CHECK(bad == std::string::npos);
}

TEST_CASE("a label's control character or bytes past U+10FFFF leave the SVG well-formed", "[plot][hostile]") {
    // "\xF4\x90\x80\x80" would be U+110000 and "\xED\xA0\x80" the surrogate U+D800: no UTF-8 holds them
    const std::string svg = plot::render(
        {"",
         1,
         400,
         300,
         {plot::BarChart{"bell\a", "x\x01", "y", {"a\x02", "b\xF4\x90\x80\x80", "c\xED\xA0\x80"}, {1, 2, 3}}}},
        plot::Format::svg);
    const std::size_t bad = first_non_xml(svg);
    INFO("at byte " << bad);
    CHECK(bad == std::string::npos);
}
