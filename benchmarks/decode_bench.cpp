#include "benchmarks/decode_bench.h"

#include <algorithm>

#include "benchmarks/copy_task_bench.h"
#include "benchmarks/median_time.h"
#include "benchmarks/peak_rss.h"
#include "data/copy_task.h"
#include "models/greedy_decode.h"
#include "nn/attention_mask.h"

using namespace autograd;

namespace benchmarks {

std::vector<std::int64_t> decode_lengths(bool quick) {
    if (quick) return {16};
    return {16, 64, 256};
}

std::vector<Record> bench_decode(Decoding way, const RunSettings& run) {
    const CopyTaskSetup s = copy_task_small();
    auto model = models::make_transformer(s.model);
    Generator gen(s.model.seed);
    const bool cached = way == Decoding::cached;
    std::vector<Record> records;
    for (std::int64_t n : decode_lengths(run.quick)) {
        data::CopyBatch b = data::copy_task_batch(s.model.src_vocab, n + 1, 1, gen);
        Tensor mask = nn::padding_mask(b.src, data::kCopyPad);
        // Short decodings take milliseconds: more runs for them, so the median is not one noisy call.
        const int runs = run.quick ? 1 : static_cast<int>(std::max<std::int64_t>(5, 1280 / n));
        const double seconds = median_seconds(
            [&] {
                if (cached)
                    models::greedy_decode(*model, b.src, mask, n + 1, 1);
                else
                    models::greedy_decode_recompute(*model, b.src, mask, n + 1, 1);
            },
            runs);
        Record r;
        r.strings = {{"framework", "lectern"}, {"kind", "decode"}, {"workload", cached ? "decode_cached" : "decode_recompute"},
                     {"decoding", cached ? "cached" : "recompute"}};
        r.numbers = {{"tokens", static_cast<double>(n)},
                     {"batch", 1},
                     {"runs", runs},
                     {"ms_per_token", 1e3 * seconds / static_cast<double>(n)},
                     {"peak_rss_mb", peak_rss_mb()}};
        records.push_back(r);
    }
    return records;
}

}  // namespace benchmarks
