#pragma once
// A masked language model's batch (BERT's pre-training; not in the notes):
// some tokens of each text are chosen and hidden, and the model is scored on
// predicting them from the rest.
#include <cstdint>
#include <utility>
#include <vector>

#include "lectern/autograd/random.h"
#include "lectern/autograd/tensor.h"
#include "lectern/data/token_batches.h"

namespace data {

// ids [B, T] and targets [B, T] of `rows`. Each token is chosen with
// probability `mask_prob`, and one of each text always: the model reads
// `mask_id` there (80%), a random token 1 .. mask_id - 1 (10%) or the token
// itself (10%), and its target is the original token; -100 (ignored) elsewhere.
std::pair<autograd::Tensor, autograd::Tensor> masked_token_batch(const TokenizedTexts& texts,
                                                                 const std::vector<std::size_t>& rows, double mask_prob,
                                                                 std::int64_t mask_id, autograd::Generator& gen);

}  // namespace data
