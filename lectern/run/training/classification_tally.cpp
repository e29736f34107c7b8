#include "lectern/run/training/classification_tally.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "lectern/autograd/autograd.h"

namespace run {

using namespace autograd;

ClassificationTally::ClassificationTally(std::int64_t classes)
    : confusion_(static_cast<std::size_t>(classes), std::vector<std::int64_t>(static_cast<std::size_t>(classes), 0)) {}

void ClassificationTally::add(const Tensor& logits, const Tensor& labels) {
    NoGradGuard no_grad;
    loss_sum_ += cross_entropy(logits, labels).item() * static_cast<double>(labels.numel());
    const Tensor pred = argmax(logits, -1);
    for (std::int64_t i = 0; i < pred.numel(); ++i) {
        const std::int64_t y = labels.data<std::int64_t>()[i], p = pred.data<std::int64_t>()[i];
        right_ += y == p;
        confusion_[static_cast<std::size_t>(y)][static_cast<std::size_t>(p)] += 1;
    }
    seen_ += labels.numel();
}

double ClassificationTally::accuracy() const {
    return static_cast<double>(right_) / static_cast<double>(std::max<std::int64_t>(seen_, 1));
}

double ClassificationTally::loss() const { return loss_sum_ / static_cast<double>(std::max<std::int64_t>(seen_, 1)); }

ClassificationTally tally_rows(std::size_t n, std::int64_t classes, const std::vector<std::int64_t>& labels,
                               const std::function<Tensor(const std::vector<std::size_t>&)>& logits_of) {
    NoGradGuard no_grad;
    ClassificationTally tally(classes);
    for (std::size_t i = 0; i < n; i += 64) {
        std::vector<std::size_t> rows(std::min<std::size_t>(64, n - i));
        std::iota(rows.begin(), rows.end(), i);
        std::vector<double> y;
        for (auto r : rows) y.push_back(static_cast<double>(labels[r]));
        tally.add(logits_of(rows), tensor(y, Dtype::int64));
    }
    return tally;
}

std::string class_table(const std::string& first_header, const std::vector<std::string>& names,
                        const std::vector<CountColumn>& counts, const std::vector<AccuracyColumn>& models) {
    auto width = [](const std::string& header) { return std::max<std::size_t>(8, header.size()); };
    std::string out = fmt::format("{:<12}", first_header);
    for (const CountColumn& c : counts) out += fmt::format(" {:>{}}", c.header, width(c.header));
    for (const AccuracyColumn& m : models) out += fmt::format(" {:>{}}", m.header, width(m.header));
    out += models.size() > 1 ? fmt::format("   confusion of the {}", models.front().header) : "   confusion";
    out += " (rows: true class, columns: predicted)\n";
    for (std::size_t y = 0; y < names.size(); ++y) {
        out += fmt::format("{:<12}", names[y]);
        for (const CountColumn& c : counts) out += fmt::format(" {:>{}}", c.values[y], width(c.header));
        for (const AccuracyColumn& m : models) {
            const std::vector<std::int64_t>& row = (*m.confusion)[y];
            const std::int64_t n = std::max<std::int64_t>(std::accumulate(row.begin(), row.end(), std::int64_t{0}), 1);
            out += fmt::format(" {:>{}.1f}%", 100.0 * static_cast<double>(row[y]) / static_cast<double>(n),
                               width(m.header) - 1);
        }
        out += "  ";
        for (std::int64_t c : (*models.front().confusion)[y]) out += fmt::format("{:>5}", c);
        out += "\n";
    }
    return out;
}

}  // namespace run
