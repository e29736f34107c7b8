#pragma once
// A language model's batch: windows of a text and, one token on, their next tokens.
#include <cstdint>
#include <vector>

#include "lectern/autograd/autograd.h"
#include "lectern/data/token_ids.h"

namespace data {

// The teacher-forced batch of B windows of T + 1 tokens starting at `starts`:
// inputs ids[s .. s+T), targets ids[s+1 .. s+T+1) (next-token prediction).
struct TextBatch {
    autograd::Tensor inputs;   // int64 [B, T]
    autograd::Tensor targets;  // int64 [B, T]
};
TextBatch text_batch(const TokenSpan& ids, const std::vector<std::int64_t>& starts, std::int64_t T);

}  // namespace data
