#include "lectern/run/figures/vit_figures.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace run {

plot::Figure rollout_figure(const std::vector<RolloutExample>& examples, const std::string& row) {
    plot::Figure figure{fmt::format("Attention rollout ({}) over test images: true class as predicted class", row),
                        4,
                        0,
                        0,
                        {},
                        0.6};
    for (const RolloutExample& e : examples) {
        const std::vector<double> shares = e.rollout.to_vector();
        const auto N = static_cast<double>(shares.size());
        const auto grid = static_cast<std::int64_t>(std::lround(std::sqrt(N)));
        plot::HeatMap m;
        m.title = fmt::format("{} as {}", e.truth, e.predicted);
        m.x_label = "patch column";
        m.y_label = "patch row";
        m.rows = grid, m.cols = grid;
        // each share as a multiple of the uniform 1/N: from 1 (no preference) to this image's largest
        double top = 1;
        for (double v : shares) m.values.push_back(N * v), top = std::max(top, N * v);
        m.scale = {1, top > 1 ? top : 1.01, "times the uniform 1/N", plot::Palette::spotlight};
        m.under = {e.image.size(0), e.image.size(1), e.image.to_vector()};
        figure.panels.push_back(std::move(m));
    }
    const auto rows = static_cast<int>((examples.size() + 3) / 4);
    figure.columns = static_cast<int>(std::min<std::size_t>(4, std::max<std::size_t>(examples.size(), 1)));
    figure.width = 1400, figure.height = 330 * rows + 50;
    return figure;
}

namespace {

// Eigenvalues (descending) and unit eigenvectors (columns of v) of the symmetric
// n x n matrix a, by cyclic Jacobi rotations: exact enough for n <= 64.
void symmetric_eigen(std::vector<double> a, std::size_t n, std::vector<double>& values, std::vector<double>& v) {
    v.assign(n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i) v[i * n + i] = 1;
    for (int sweep = 0; sweep < 100; ++sweep) {
        double off = 0;
        for (std::size_t p = 0; p < n; ++p)
            for (std::size_t q = p + 1; q < n; ++q) off += a[p * n + q] * a[p * n + q];
        if (off < 1e-22) break;
        for (std::size_t p = 0; p < n; ++p)
            for (std::size_t q = p + 1; q < n; ++q) {
                if (std::abs(a[p * n + q]) < 1e-300) continue;
                const double theta = (a[q * n + q] - a[p * n + p]) / (2 * a[p * n + q]);
                const double t = (theta >= 0 ? 1 : -1) / (std::abs(theta) + std::sqrt(theta * theta + 1));
                const double c = 1 / std::sqrt(t * t + 1), s = t * c;
                for (std::size_t k = 0; k < n; ++k) {  // a <- a J (columns p, q)
                    const double akp = a[k * n + p], akq = a[k * n + q];
                    a[k * n + p] = c * akp - s * akq, a[k * n + q] = s * akp + c * akq;
                }
                for (std::size_t k = 0; k < n; ++k) {  // a <- J^T a (rows p, q)
                    const double apk = a[p * n + k], aqk = a[q * n + k];
                    a[p * n + k] = c * apk - s * aqk, a[q * n + k] = s * apk + c * aqk;
                }
                for (std::size_t k = 0; k < n; ++k) {
                    const double vkp = v[k * n + p], vkq = v[k * n + q];
                    v[k * n + p] = c * vkp - s * vkq, v[k * n + q] = s * vkp + c * vkq;
                }
            }
    }
    values.resize(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = a[i * n + i];
}

}  // namespace

plot::Figure embedding_components_figure(const autograd::Tensor& filters, std::int64_t patch, int count) {
    const auto D = static_cast<std::size_t>(filters.size(0)), n = static_cast<std::size_t>(filters.size(1));
    const std::vector<double> w = filters.to_vector();
    std::vector<double> mean(n, 0.0), cov(n * n, 0.0);
    for (std::size_t d = 0; d < D; ++d)
        for (std::size_t i = 0; i < n; ++i) mean[i] += w[d * n + i] / static_cast<double>(D);
    for (std::size_t d = 0; d < D; ++d)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
                cov[i * n + j] += (w[d * n + i] - mean[i]) * (w[d * n + j] - mean[j]) / static_cast<double>(D);
    std::vector<double> values, vectors;
    symmetric_eigen(cov, n, values, vectors);
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] > values[b]; });
    double total = 0;
    for (double e : values) total += std::max(e, 0.0);
    plot::Figure figure{fmt::format("Patch-embedding filters: first principal components of E's {} rows", D),
                        4,
                        1300,
                        0,
                        {},
                        0.8};
    const std::size_t shown = std::min(static_cast<std::size_t>(std::max(count, 0)), n);
    double top = 0;  // one colour scale for all the components shown
    for (std::size_t k = 0; k < shown; ++k)
        for (std::size_t i = 0; i < n; ++i) top = std::max(top, std::abs(vectors[i * n + order[k]]));
    for (std::size_t k = 0; k < shown; ++k) {
        const std::size_t c = order[k];
        plot::HeatMap m;
        m.title = fmt::format("component {} ({:.0f}% of variance)", k + 1,
                              total > 0 ? 100 * std::max(values[c], 0.0) / total : 0.0);
        m.x_label = "pixel column", m.y_label = "pixel row";
        m.rows = patch, m.cols = static_cast<std::int64_t>(n) / patch;
        for (std::size_t i = 0; i < n; ++i) m.values.push_back(vectors[i * n + c]);
        m.scale = {-top, top, "weight in the component", plot::Palette::diverging};
        m.colour_bar = (k + 1) % 4 == 0 || k + 1 == shown;
        figure.panels.push_back(std::move(m));
    }
    figure.height = 340 * static_cast<int>((figure.panels.size() + 3) / 4) + 60;
    return figure;
}

plot::Figure confusion_figure(const std::vector<std::vector<std::int64_t>>& confusion,
                              const std::vector<std::string>& classes, const std::string& items) {
    plot::HeatMap m;
    m.title = fmt::format("Confusion matrix: how the test {} of each class were classified", items);
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
    m.cell_values = true;
    return plot::Figure{"", 1, 760, 680, {m}};
}

}  // namespace run
