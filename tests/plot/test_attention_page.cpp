// The attention page (lectern/plot/attention_page.h): one self-contained file
// holding its weights as written, tokens that stay text, and data that cannot
// be drawn refused with one line, as a figure's are.
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "lectern/plot/attention_page.h"
#include "lectern/plot/figure.h"

namespace {

// Two layers of two heads, 2 queries x 3 keys: weight ((l * 2 + h) * 2 + q) * 3 + s.
plot::AttentionPage two_layers() {
    plot::AttentionKind k{"cross-attention", {"<s>", "a"}, {"x", "y", "z"}, 2, 2, {}};
    for (int row = 0; row < 8; ++row) {
        const double first = 0.125 * row;  // 0, 0.125, ..., 0.875: each row differs and adds up to 1
        k.weights.insert(k.weights.end(), {first, (1 - first) / 2, (1 - first) / 2});
    }
    return {"Copy task", {k}};
}

std::size_t count(const std::string& text, const std::string& part) {
    std::size_t n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
}

// A file of lectern/plot/attention_page/, the page's source (ATTENTION_PAGE_DIR: tests/plot/meson.build).
std::string page_file(const std::string& name) {
    std::ifstream in(std::string(ATTENTION_PAGE_DIR) + "/" + name, std::ios::binary);
    REQUIRE(in);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string refusal(const plot::AttentionPage& page) {
    try {
        plot::render_page(page);
    } catch (const plot::Error& e) {
        return e.what();
    }
    return "(nothing refused)";
}

}  // namespace

TEST_CASE("an attention page holds its tokens and every weight as written, in [layer][head][query][key]", "[plot]") {
    const std::string html = plot::render_page(two_layers());
    CHECK(html.starts_with("<!DOCTYPE html>"));
    CHECK(html.find(R"("queries":["\u003cs\u003e","a"],"keys":["x","y","z"])") != std::string::npos);
    // layer 1, head 0 is row block 2: its query 1 (row 5) is 0.625, 0.1875, 0.1875
    CHECK(html.find("0.5,0.25,0.25,0.625,0.1875,0.1875") != std::string::npos);
    CHECK(html.find(R"("layers":2,"heads":2)") != std::string::npos);
}

TEST_CASE("an attention page needs no network: no external script, style, font or image", "[plot]") {
    const std::string html = plot::render_page(two_layers());
    for (const char* fetch : {"src=", "href=", "url(", "@import", "<link", "<iframe"}) {
        INFO(fetch);
        CHECK(html.find(fetch) == std::string::npos);
    }
    CHECK(count(html, "<script") == 2);  // the data and the script that draws it, both inline
}

TEST_CASE("a token or title holding markup stays text on the attention page", "[plot]") {
    plot::AttentionPage page = two_layers();
    page.title = "<b>bold</b> & \"quoted\"";
    page.kinds[0].queries[1] = "</script><script>alert(1)</script>";
    const std::string html = plot::render_page(page);
    CHECK(count(html, "</script>") == 2);  // the page's own two elements close, no token's
    CHECK(html.find("alert(1)") != std::string::npos);
    CHECK(html.find("<b>") == std::string::npos);
    CHECK(html.find("<title>&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;</title>") != std::string::npos);
    page.kinds[0].keys[0] =
        std::string(1, static_cast<char>(0xff));  // not UTF-8: shown as U+FFFD, the JSON stays valid
    CHECK(plot::render_page(page).find("\"\xef\xbf\xbd\"") != std::string::npos);
}

TEST_CASE("the explorer's style, markup and script are attention_page/'s files, byte for byte", "[plot]") {
    CHECK(plot::explorer_style() == page_file("explorer.css"));
    CHECK(plot::explorer_markup() == page_file("explorer_markup.html"));
    CHECK(plot::explorer_script() == page_file("explorer.js"));
}

TEST_CASE("an attention page is page.html with its marks filled in", "[plot]") {
    plot::AttentionPage page = two_layers();
    page.title = "@DATA@ & @SCRIPT@";  // a title is filled in once: its marks stay text
    std::string expected = page_file("page.html");
    const auto put = [&](const std::string& mark, std::string_view text) {
        for (auto at = expected.find(mark); at != std::string::npos; at = expected.find(mark, at + text.size()))
            expected.replace(at, mark.size(), text);
    };
    put("@STYLE@", plot::explorer_style());
    put("@MARKUP@", plot::explorer_markup());
    put("@SCRIPT@", plot::explorer_script());
    put("@DATA@", plot::explorer_data(page));
    put("@TITLE@", "@DATA@ &amp; @SCRIPT@");
    CHECK(plot::render_page(page) == expected);
}

TEST_CASE("an attention page that cannot be drawn is refused with one line", "[plot]") {
    plot::AttentionPage page = two_layers();
    page.kinds[0].weights[7] = std::numeric_limits<double>::quiet_NaN();
    CHECK(refusal(page) ==
          "cannot draw \"Copy task\": cross-attention: layer 0, head 1, query 0, key 1 holds nan, "
          "not an attention weight in [0, 1]");
    page = two_layers();
    page.kinds[0].weights[23] = 1.5;
    CHECK(refusal(page) ==
          "cannot draw \"Copy task\": cross-attention: layer 1, head 1, query 1, key 2 holds 1.5, "
          "not an attention weight in [0, 1]");
    page = two_layers();
    page.kinds[0].queries.clear();
    CHECK(refusal(page) ==
          "cannot draw \"Copy task\": cross-attention: 0 query tokens and 3 key tokens, nothing to show");
    page = two_layers();
    page.kinds[0].weights.pop_back();
    CHECK(refusal(page) ==
          "cannot draw \"Copy task\": cross-attention: 23 weights for 2 layers x 2 heads x 2 queries x 3 keys");
    page.kinds.clear();
    CHECK(refusal(page) == "cannot draw \"Copy task\": no attention to show");
}
