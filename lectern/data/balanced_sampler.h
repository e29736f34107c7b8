#pragma once
// Batches balanced by class: each draw picks a class uniformly, then one of its
// texts uniformly, so a model is trained for a test set with as many texts of
// every class, and not for the training set's proportions (the fortunes'
// computers has five times food's texts). Sampled with replacement: a class
// of few texts repeats them.
#include <cstdint>
#include <vector>

#include "lectern/autograd/random.h"

namespace data {

class BalancedSampler {
public:
    // `labels[i]` is text i's class in [0, classes). ValueError for a label
    // outside it, or a class with no text.
    BalancedSampler(const std::vector<std::int64_t>& labels, std::int64_t classes, std::uint64_t seed);

    // `n` text indices; two draws of the generator each.
    std::vector<std::size_t> batch(std::int64_t n);

    // What the next batches depend on: a checkpoint keeps it.
    autograd::Generator& generator() { return gen_; }

private:
    std::vector<std::vector<std::size_t>> by_class_;  // the texts of each class, in order
    autograd::Generator gen_;
};

}  // namespace data
