#include "lectern/data/copy_task.h"

#include <fmt/format.h>

namespace data {

using namespace autograd;

CopyBatch copy_task_batch(std::int64_t vocab, std::int64_t seq_len, std::int64_t batch, Generator& gen,
                          std::int64_t start_symbol) {
    if (vocab < 3 || seq_len < 2 || batch < 1)
        throw ValueError(fmt::format("copy_task_batch: need vocab >= 3, seq_len >= 2, batch >= 1; got {}, {}, {}",
                                     vocab, seq_len, batch));
    if (start_symbol < 1 || start_symbol >= vocab)
        throw ValueError(fmt::format("copy_task_batch: start symbol {} is outside [1, {})", start_symbol, vocab));
    CopyBatch b;
    b.src = Tensor::empty({batch, seq_len}, Dtype::int64);
    std::int64_t* s = b.src.data<std::int64_t>();
    for (std::int64_t i = 0; i < batch; ++i) {
        s[i * seq_len] = start_symbol;
        for (std::int64_t t = 1; t < seq_len; ++t) s[i * seq_len + t] = 1 + gen.randint(vocab - 1);
    }
    b.tgt_in = narrow(b.src, 1, 0, seq_len - 1);
    b.tgt_out = narrow(b.src, 1, 1, seq_len - 1);
    b.ntokens = batch * (seq_len - 1);  // no padding in this task
    return b;
}

CopyBatch copy_task_rows(const CopyBatch& b, std::int64_t begin, std::int64_t end) {
    const std::int64_t n = b.src.size(0);
    if (begin < 0 || end > n || begin >= end)
        throw IndexError(fmt::format("copy_task_rows: rows [{}, {}) of a batch of {}", begin, end, n));
    CopyBatch part{narrow(b.src, 0, begin, end - begin), narrow(b.tgt_in, 0, begin, end - begin),
                   narrow(b.tgt_out, 0, begin, end - begin), 0};
    const std::int64_t* y = part.tgt_out.data<std::int64_t>();
    for (std::int64_t i = 0; i < part.tgt_out.numel(); ++i) part.ntokens += y[i] != kCopyPad;
    return part;
}

}  // namespace data
