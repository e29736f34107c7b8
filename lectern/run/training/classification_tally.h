#pragma once
// How a classifier scores on a set, counted batch by batch: its accuracy, its
// mean cross-entropy, and the confusion matrix counts[true][predicted], and the
// report's table of it. The ViT and the text classifier score their test sets
// with it.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lectern/autograd/tensor.h"

namespace run {

using Confusion = std::vector<std::vector<std::int64_t>>;  // [true][predicted]

class ClassificationTally {
public:
    explicit ClassificationTally(std::int64_t classes);
    // logits [B, K], labels [B] (int64): the batch's predictions are argmax over K.
    void add(const autograd::Tensor& logits, const autograd::Tensor& labels);
    double accuracy() const;  // right / seen
    double loss() const;      // the mean of the batches' cross-entropy, each weighted by its size
    std::int64_t seen() const { return seen_; }
    const Confusion& confusion() const { return confusion_; }

private:
    Confusion confusion_;
    std::int64_t right_ = 0, seen_ = 0;
    double loss_sum_ = 0;
};

// Rows 0 .. n - 1 of a set through `logits_of`, 64 at a time, without gradients.
ClassificationTally tally_rows(std::size_t n, std::int64_t classes, const std::vector<std::int64_t>& labels,
                               const std::function<autograd::Tensor(const std::vector<std::size_t>&)>& logits_of);

// The per-class table of a classifier's report, one line a class: its name, the `counts`
// columns (how many examples of the class a set holds, say), each model's accuracy on the class
// (its confusion's diagonal over the row) and the first model's row of the confusion matrix
// (its header names it when there are two or more). `models` holds one at least.
// A column is as wide as its header, and at least 8.
struct CountColumn {
    std::string header;
    std::vector<std::int64_t> values;  // one a class
};
struct AccuracyColumn {
    std::string header;
    const Confusion* confusion;
};
std::string class_table(const std::string& first_header, const std::vector<std::string>& names,
                        const std::vector<CountColumn>& counts, const std::vector<AccuracyColumn>& models);

}  // namespace run
