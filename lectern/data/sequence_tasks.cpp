#include "lectern/data/sequence_tasks.h"

#include <algorithm>

#include <fmt/format.h>

namespace data {

using namespace autograd;

SequenceTask sequence_task_named(const std::string& name) {
    if (name == "copy") return SequenceTask::copy;
    if (name == "reverse") return SequenceTask::reverse;
    if (name == "sort") return SequenceTask::sort;
    throw ValueError(fmt::format("unknown sequence task '{}': copy, reverse or sort", name));
}

std::string name_of(SequenceTask task) {
    switch (task) {
        case SequenceTask::copy:
            return "copy";
        case SequenceTask::reverse:
            return "reverse";
        case SequenceTask::sort:
            return "sort";
    }
    return "?";
}

CopyBatch sequence_task_batch(SequenceTask task, std::int64_t vocab, std::int64_t seq_len, std::int64_t batch,
                              Generator& gen, std::int64_t start_symbol) {
    CopyBatch b = copy_task_batch(vocab, seq_len, batch, gen, start_symbol);
    if (task == SequenceTask::copy) return b;
    Tensor target = b.src.clone();  // [B, L]: the start symbol stays first
    std::int64_t* t = target.data<std::int64_t>();
    for (std::int64_t i = 0; i < batch; ++i) {
        std::int64_t* symbols = t + i * seq_len + 1;
        if (task == SequenceTask::reverse) std::reverse(symbols, symbols + seq_len - 1);
        else std::sort(symbols, symbols + seq_len - 1);
    }
    b.tgt_in = narrow(target, 1, 0, seq_len - 1);
    b.tgt_out = narrow(target, 1, 1, seq_len - 1);
    return b;
}

}  // namespace data
