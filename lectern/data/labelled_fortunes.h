#pragma once
// What a fortune classifier reads: the fortunes of its categories split by
// class (split_by_class), and for pre-training the unlabelled rest, with a
// digest that tells whether a resumed run reads the same fortunes.
#include <cstdint>
#include <string>
#include <vector>

#include "lectern/data/fortune_categories.h"

namespace data {

struct LabelledFortunes {
    FortuneSplit split;
    // With pre-training: every entry of every fortunes file (read_fortunes'
    // corpus, kFortuneFiles, and the categories') but the validation and test
    // fortunes, wherever else they occur; labels 0.
    std::vector<LabelledText> unlabelled;
    std::string digest;  // "N fortunes, CRC-32 xxxxxxxx" over every text and label, in order
};

struct FortuneSplitSizes {
    std::int64_t test_per_class, validation_per_class;
    std::uint64_t seed;  // draws the split
    bool unlabelled;     // read the unlabelled fortunes too
};

// DatasetError as read_fortune_entries and split_by_class raise it.
LabelledFortunes read_labelled_fortunes(const std::string& dir, const std::vector<std::string>& categories,
                                        const FortuneSplitSizes& sizes);

}  // namespace data
