#include "examples/experiments/report.h"

#include <algorithm>

#include <fmt/format.h>

#include "lectern/autograd/errors.h"
#include "lectern/run/shell/console.h"
#include "lectern/run/figures/figure_files.h"

namespace run::experiments {

Table::Table(std::vector<std::string> header) : header_(std::move(header)) {}

void Table::row(std::vector<std::string> cells) {
    if (cells.size() != header_.size())
        throw autograd::ValueError(
            fmt::format("a table row of {} cells under {} columns", cells.size(), header_.size()));
    rows_.push_back(std::move(cells));
}

void Table::print() const {
    std::vector<std::size_t> width(header_.size());
    for (std::size_t c = 0; c < header_.size(); ++c) {
        width[c] = header_[c].size();
        for (const auto& r : rows_) width[c] = std::max(width[c], r[c].size());
    }
    auto line = [&](const std::vector<std::string>& cells) {
        std::string text;
        for (std::size_t c = 0; c < cells.size(); ++c)
            text += fmt::format("{:<{}}", cells[c], c + 1 < cells.size() ? width[c] + 3 : 0);
        say("{}\n", text);
    };
    line(header_);
    std::vector<std::string> rule;
    for (std::size_t w : width) rule.push_back(std::string(w, '-'));
    line(rule);
    for (const auto& r : rows_) line(r);
}

std::string verdict_line(const Options& options, bool held, const std::string& because) {
    if (options.quick) return "quick run: no verdict (smoke test): " + because;
    return fmt::format("claim {}: {}", held ? "held" : "NOT held", because);
}

void verdict(const Options& options, bool held, const std::string& because) {
    say("{}\n", verdict_line(options, held, because));
}

void draw(const Options& options, const std::string& stem, const plot::Figure& figure) {
    if (options.figures.empty()) return;
    for (const std::string& path : write_figure(options.figures + "/" + stem, figure))
        say("figure written: {}\n", path);
}

}  // namespace run::experiments
