// An epoch's batches: length-sorted within runs, shuffled by the epoch's own generator.
#include <algorithm>

#include "check.h"
#include "lectern/data/epoch_batches.h"

namespace {

// Sources of the given lengths (their tokens do not matter here), empty targets.
std::vector<data::TokenPair> of_lengths(const std::vector<std::size_t>& lengths) {
    std::vector<data::TokenPair> pairs;
    for (std::size_t n : lengths) pairs.push_back({std::vector<std::int64_t>(n, 7), {}});
    return pairs;
}

}  // namespace

TEST_CASE("an epoch's batches are runs of pairs sorted by source length (worked by hand)", "[data]") {
    // Lengths 3 1 4 5 2: sorted, pairs 1 4 0 2 3; in batches of 2: {1 4} {0 2} {3}, whatever the shuffle.
    const std::vector<data::TokenPair> pairs = of_lengths({3, 1, 4, 5, 2});
    std::vector<std::vector<std::size_t>> batches = data::epoch_batches(pairs, 2, 1, 1);
    CHECK(data::batches_per_epoch(pairs, 2) == 3);
    std::sort(batches.begin(), batches.end());
    CHECK(batches == std::vector<std::vector<std::size_t>>{{0, 2}, {1, 4}, {3}});
}

TEST_CASE("an epoch's batches depend on the seed and the epoch alone", "[data]") {
    const std::vector<data::TokenPair> pairs = of_lengths({3, 1, 4, 5, 2, 6, 9, 8, 7});
    CHECK(data::epoch_batches(pairs, 2, 5, 3) ==
          data::epoch_batches(pairs, 2, 5, 3));  // a resumed run draws these again
    bool changed = false;                        // the order of the batches is drawn anew each epoch
    for (std::int64_t epoch = 2; epoch <= 10; ++epoch)
        changed = changed || data::epoch_batches(pairs, 2, 5, epoch) != data::epoch_batches(pairs, 2, 5, 1);
    CHECK(changed);
}

TEST_CASE("an epoch's batches refuse a batch of no pairs", "[errors]") {
    CHECK_THROWS_AS(data::epoch_batches(of_lengths({1}), 0, 1, 1), autograd::ValueError);
}
