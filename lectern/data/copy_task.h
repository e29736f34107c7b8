#pragma once
// The Annotated Transformer's synthetic copy task (001's full post, "A First Example",
// beyond the excerpt):
// each sequence is a start symbol followed by symbols drawn uniformly from
// 1..V-1, and the target is the source itself. 0 is the padding symbol.
//
// The 2018 post trains with start symbol 1 (data_gen sets data[:, 0] = 1) and decodes
// from 1; its 2022 revision decodes from 0, the padding symbol, which the model never saw
// in that place. Here the one start symbol (default 1) is used for both, as in 2018.
#include <cstdint>

#include "lectern/autograd/autograd.h"

namespace data {

using autograd::Tensor;

struct CopyBatch {
    Tensor src;                // int64 [B, L]: start symbol, then L-1 random symbols
    Tensor tgt_in;             // int64 [B, L-1]: the target shifted right (decoder input, teacher forcing)
    Tensor tgt_out;            // int64 [B, L-1]: the target shifted left (what to predict)
    std::int64_t ntokens = 0;  // non-padding tokens in tgt_out
};

constexpr std::int64_t kCopyPad = 0;

// ValueError if vocab < 3 (padding, start, one symbol), seq_len < 2 or batch < 1,
// or the start symbol is outside [1, vocab).
CopyBatch copy_task_batch(std::int64_t vocab, std::int64_t seq_len, std::int64_t batch, autograd::Generator& gen,
                          std::int64_t start_symbol = 1);

// The sequences [begin, end) of a batch, with their own count of tokens: one
// rank's share of a batch in data-parallel training. IndexError outside it.
CopyBatch copy_task_rows(const CopyBatch& b, std::int64_t begin, std::int64_t end);

}  // namespace data
