#include "lectern/data/seq2seq_batch.h"

#include <algorithm>

#include <fmt/format.h>

namespace data {

using autograd::Dtype;

Seq2SeqBatch seq2seq_batch(const std::vector<TokenPair>& pairs, const std::vector<std::size_t>& rows,
                           const Seq2SeqSymbols& symbols) {
    if (rows.empty()) throw autograd::ValueError("seq2seq_batch: no rows");
    std::size_t S = 1, T = 1;
    for (std::size_t i : rows) {
        if (i >= pairs.size())
            throw autograd::IndexError(fmt::format("seq2seq_batch: row {} of {} pairs", i, pairs.size()));
        S = std::max(S, pairs[i].src.size());
        T = std::max(T, pairs[i].tgt.size() + 1);
    }
    const auto B = static_cast<std::int64_t>(rows.size());
    const auto pad = static_cast<double>(symbols.pad);
    Seq2SeqBatch b{autograd::full({B, static_cast<std::int64_t>(S)}, pad, Dtype::int64),
                   autograd::full({B, static_cast<std::int64_t>(T)}, pad, Dtype::int64),
                   autograd::full({B, static_cast<std::int64_t>(T)}, pad, Dtype::int64)};
    auto* src = b.src.data<std::int64_t>();
    auto* in = b.tgt_in.data<std::int64_t>();
    auto* out = b.tgt_out.data<std::int64_t>();
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const TokenPair& p = pairs[rows[r]];
        std::copy(p.src.begin(), p.src.end(), src + r * S);
        in[r * T] = symbols.start;
        std::copy(p.tgt.begin(), p.tgt.end(), in + r * T + 1);
        std::copy(p.tgt.begin(), p.tgt.end(), out + r * T);
        out[r * T + p.tgt.size()] = symbols.end;
        b.tokens += static_cast<std::int64_t>(p.tgt.size()) + 1;
    }
    return b;
}

}  // namespace data
