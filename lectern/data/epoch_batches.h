#pragma once
// An epoch's batches of source-target pairs (seq2seq_batch.h), as indices into
// the pairs: the pairs shuffled by a generator of the epoch's own (seed and
// epoch name it, so a resumed run draws the same batches with nothing kept),
// then sorted by source length within runs of 64 batches, so that a batch
// pads little; cut into batches in that order, and the batches shuffled again,
// so that the lengths do not rise through a run. The last batch may be short.
//
//   sources of lengths 3 1 4 5 2 (pairs 0..4), batch 2: one run, sorted
//   1 4 0 2 3, batches {1 4} {0 2} {3} in the order the generator draws.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lectern/data/seq2seq_batch.h"

namespace data {

// ValueError unless batch >= 1.
std::vector<std::vector<std::size_t>> epoch_batches(const std::vector<TokenPair>& pairs, std::int64_t batch,
                                                    std::uint64_t seed, std::int64_t epoch);

// The batches of an epoch: ceil(pairs / batch).
std::int64_t batches_per_epoch(const std::vector<TokenPair>& pairs, std::int64_t batch);

}  // namespace data
