#include "examples/vit_figures.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace examples {

plot::Figure rollout_figure(const std::vector<RolloutExample>& examples) {
    double top = 0;
    for (const RolloutExample& e : examples)
        for (double v : e.rollout.to_vector()) top = std::max(top, 100 * v);
    if (!(top > 0)) top = 1;  // an all-zero rollout still gets a scale
    plot::Figure figure{"Attention rollout over test images: true class as predicted class", 4, 0, 0, {}, 0.75};
    for (std::size_t i = 0; i < examples.size(); ++i) {
        const RolloutExample& e = examples[i];
        const auto grid = static_cast<std::int64_t>(std::lround(std::sqrt(static_cast<double>(e.rollout.numel()))));
        plot::HeatMap m;
        m.title = fmt::format("{} as {}", e.truth, e.predicted);
        m.x_label = "patch column";
        m.y_label = "patch row";
        m.rows = grid, m.cols = grid;
        for (double v : e.rollout.to_vector()) m.values.push_back(100 * v);
        m.scale = {0, top, "share of the [CLASS] row (%)", plot::Palette::glow};
        m.colour_bar = (i + 1) % 4 == 0 || i + 1 == examples.size();
        m.under = {e.image.size(0), e.image.size(1), e.image.to_vector()};
        figure.panels.push_back(std::move(m));
    }
    const auto rows = static_cast<int>((examples.size() + 3) / 4);
    figure.columns = static_cast<int>(std::min<std::size_t>(4, std::max<std::size_t>(examples.size(), 1)));
    figure.width = 1400, figure.height = 380 * rows + 60;
    return figure;
}

plot::Figure confusion_figure(const std::vector<std::vector<std::int64_t>>& confusion, const std::vector<std::string>& classes) {
    plot::HeatMap m;
    m.title = "Confusion matrix: how the test images of each class were classified";
    m.x_label = "predicted class";
    m.y_label = "true class";
    m.rows = static_cast<std::int64_t>(confusion.size()), m.cols = static_cast<std::int64_t>(classes.size());
    for (const auto& row : confusion) {
        std::int64_t total = 0;
        for (auto c : row) total += c;
        for (auto c : row) m.values.push_back(total > 0 ? static_cast<double>(c) / static_cast<double>(total) : 0.0);
    }
    m.row_labels = classes, m.col_labels = classes;
    m.scale = {0, 1, "share of the true class", plot::Palette::sequential};
    return plot::Figure{"", 1, 760, 680, {m}};
}

}  // namespace examples
