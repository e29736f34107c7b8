#pragma once
// A batch of source-target pairs for an encoder-decoder under teacher forcing
// (000 note i): the sources padded to the longest, and the target twice, as
// the decoder reads it (<s> y) and as it must predict it (y </s>), padded to
// the longest target plus one.
//
//   pairs: ([5 6 7], [8]), ([9], [10 11])   pad 0, <s> 1, </s> 2, rows {1, 0}
//   src     = [[9 0 0], [5 6 7]]
//   tgt_in  = [[1 10 11], [1 8 0]]
//   tgt_out = [[10 11 2], [8 2 0]]            tokens = 3 + 2 = 5
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lectern/autograd/autograd.h"

namespace data {

// A source and its target as token ids, the target without start and end symbols.
struct TokenPair {
    std::vector<std::int64_t> src, tgt;
};

// The symbols a batch puts around and after the pairs' tokens.
struct Seq2SeqSymbols {
    std::int64_t pad, start, end;
};

struct Seq2SeqBatch {
    autograd::Tensor src;      // int64 [B, S], S the longest source (at least 1)
    autograd::Tensor tgt_in;   // int64 [B, T]: <s> y, T the longest target plus one
    autograd::Tensor tgt_out;  // int64 [B, T]: y </s>
    std::int64_t tokens = 0;   // the target tokens the loss counts (y and </s>, not padding)
};

// Rows `rows` of `pairs`, in that order. ValueError for no rows, IndexError
// for a row outside `pairs`.
Seq2SeqBatch seq2seq_batch(const std::vector<TokenPair>& pairs, const std::vector<std::size_t>& rows,
                           const Seq2SeqSymbols& symbols);

}  // namespace data
