// The attention page a program writes (lectern/run/figures/attention_pages.h): its
// weights are the heat maps' numbers, from the same tensors in the page's
// [layer][head][query][key] order, and a page that cannot be drawn writes nothing.
#include <cmath>
#include <filesystem>
#include <limits>

#include <catch2/catch.hpp>

#include "lectern/run/figures/attention_figures.h"
#include "lectern/run/figures/attention_pages.h"
#include "temp_files.h"

using namespace autograd;

namespace {

// Two layers of [1, H = 2, Tq = 3, Tk = 4]: rows differ, each adds up to 1.
std::vector<Tensor> two_layers() {
    Tensor a = softmax(arange(2 * 2 * 3 * 4, Dtype::float32).reshape({2, 1, 2, 3, 4}) * 0.1, -1);
    return {select(a, 0, 0), select(a, 0, 1)};
}

}  // namespace

TEST_CASE("the attention page's weights are the heat maps' numbers, layer by head by query by key", "[figures]") {
    const std::vector<Tensor> layers = two_layers();
    const std::vector<std::string> queries = {"h", " ", "\n"}, keys = {"a", "b", "c", "d"};
    const plot::AttentionKind kind = run::attention_kind("self-attention", layers, queries, keys);
    const plot::Figure grid = run::attention_grid("Self-attention", layers, queries, keys);
    CHECK(kind.layers == 2);
    CHECK(kind.heads == 2);
    CHECK(kind.queries == std::vector<std::string>{"h", "␣", "↵"});  // as the heat maps' tick labels
    REQUIRE(kind.weights.size() == 2 * 2 * 3 * 4);
    for (std::int64_t l = 0; l < 2; ++l)
        for (std::int64_t h = 0; h < 2; ++h) {
            const auto& panel = std::get<plot::HeatMap>(grid.panels[static_cast<std::size_t>(l * 2 + h)]);
            for (std::int64_t q = 0; q < 3; ++q)
                for (std::int64_t s = 0; s < 4; ++s) {
                    INFO("layer " << l << ", head " << h << ", query " << q << ", key " << s);
                    const double w = kind.weights[static_cast<std::size_t>(((l * 2 + h) * 3 + q) * 4 + s)];
                    CHECK(w == layers[static_cast<std::size_t>(l)].at({0, h, q, s}));
                    CHECK(w == panel.values[static_cast<std::size_t>(q * 4 + s)]);
                }
        }
}

TEST_CASE("attention whose shape disagrees with its tokens is refused with one line", "[figures]") {
    const std::vector<Tensor> layers = two_layers();
    CHECK_THROWS_WITH(run::attention_kind("cross-attention", layers, {"h", " ", "\n"}, {"a", "b", "c"}),
                      "cannot draw \"cross-attention\": layer 0's weights are [1, 2, 3, 4], not [1, 2, 3, 3]");
    CHECK_THROWS_WITH(run::attention_kind("cross-attention", {layers[0], select(layers[1], 1, 0)}, {"h", " ", "\n"},
                                          {"a", "b", "c", "d"}),
                      "cannot draw \"cross-attention\": layer 1's weights are [1, 3, 4], not [1, 2, 3, 4]");
}

TEST_CASE("an attention page with a NaN weight is refused and writes nothing", "[figures][io]") {
    testing::TempDir dir("attention-page");
    plot::AttentionKind kind =
        run::attention_kind("self-attention", two_layers(), {"h", " ", "\n"}, {"a", "b", "c", "d"});
    const std::string good = dir.file("good.html"), bad = dir.file("bad.html");
    CHECK(run::write_attention_page(good, {"Self-attention", {kind}}) == good);
    CHECK(std::filesystem::file_size(good) > 1000);
    kind.weights[5] = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH(run::write_attention_page(bad, {"Self-attention", {kind}}),
                      "cannot draw \"Self-attention\": self-attention: layer 0, head 0, query 1, key 1 holds nan, not "
                      "an attention weight in [0, 1]");
    CHECK_FALSE(std::filesystem::exists(bad));
}
