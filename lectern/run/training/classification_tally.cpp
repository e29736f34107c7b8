#include "lectern/run/training/classification_tally.h"

#include <algorithm>
#include <numeric>

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

}  // namespace run
