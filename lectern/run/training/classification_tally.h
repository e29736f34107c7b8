#pragma once
// How a classifier scores on a set, counted batch by batch: its accuracy, its
// mean cross-entropy, and the confusion matrix counts[true][predicted]. The ViT
// and the text classifier score their test sets with it.
#include <cstddef>
#include <cstdint>
#include <functional>
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

}  // namespace run
