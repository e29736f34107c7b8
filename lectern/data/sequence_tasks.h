#pragma once
// Sequence-to-sequence tasks on the copy task's symbols (data/copy_task.h):
// the source is the start symbol then L-1 symbols from 1..V-1, and the target
// is the start symbol then those symbols copied, reversed or sorted. Copying
// can be learned position by position; reversing and sorting need to know where
// each symbol stands (reversing) or to compare every symbol with every other
// (sorting), so a model without positional information cannot reverse
// (002's permutation-equivariance argument).
#include <cstdint>
#include <string>

#include "lectern/data/copy_task.h"

namespace data {

enum class SequenceTask { copy, reverse, sort };

// "copy", "reverse", "sort"; ValueError names the choices for another name.
SequenceTask sequence_task_named(const std::string& name);
std::string name_of(SequenceTask task);

// A batch of the task: src as copy_task_batch draws it, tgt_in / tgt_out the
// task's target shifted right / left. Same errors as copy_task_batch.
CopyBatch sequence_task_batch(SequenceTask task, std::int64_t vocab, std::int64_t seq_len, std::int64_t batch,
                              autograd::Generator& gen, std::int64_t start_symbol = 1);

}  // namespace data
