#pragma once
// Learning byte-pair merges from a text (Sennrich et al. 2016, with GPT-2's
// byte-level start and pre-tokenisation).
#include <cstdint>
#include <functional>
#include <string_view>

#include "lectern/data/byte_pair_encoding.h"

namespace data {

// Starts from the 256 single bytes (id = byte value) and, while the vocabulary
// is smaller than `vocab_size`, merges the adjacent pair of tokens that occurs
// most often inside the text's pieces (pretokenize.h), counting each piece as
// often as it occurs; a tie goes to the pair of smaller ids (first, then
// second), so the result depends on the text alone. Stops early when every
// piece is one token (the result then has fewer than `vocab_size` tokens). A
// merge rewrites only the pieces that hold its pair, so 65,280 merges of the
// fortunes take seconds. `progress`, when given, is called after each merge
// with the merges made and the merges wanted (vocab_size - 256).
// DatasetError if vocab_size < 256.
using BpeProgress = std::function<void(std::int64_t made, std::int64_t wanted)>;
BytePairEncoding train_bpe(std::string_view text, std::int64_t vocab_size, const BpeProgress& progress = {});

}  // namespace data
