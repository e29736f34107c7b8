#pragma once
// Byte-pair merges learnt from a program's training text as a user watches
// them: a progress bar while the merges are learnt, then one line saying how
// many and in what time, and, when the text's pieces are all whole tokens
// before the vocabulary asked for is reached, the flag and the vocabulary the
// text gives. A stop signal ends the learning (run_program exits 128 + signal).
#include <cstdint>
#include <string_view>

#include "lectern/data/byte_pair_encoding.h"

namespace run {

// `flag` names the vocabulary's flag ("--bpe-vocab"), `what` the text ("the first 2.5 MB").
data::BytePairEncoding learn_subwords(std::string_view text, std::int64_t vocab_size, std::string_view flag,
                                      std::string_view what);

}  // namespace run
