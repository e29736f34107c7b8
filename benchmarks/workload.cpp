#include "benchmarks/workload.h"

#include "benchmarks/copy_task_bench.h"
#include "benchmarks/decode_bench.h"
#include "benchmarks/vit_bench.h"

namespace benchmarks {

const std::vector<Workload>& workloads() {
    static const std::vector<Workload> all = [] {
        std::vector<Workload> w;
        for (const CopyTaskSetup& s : {copy_task_small(), copy_task_annotated()})
            w.push_back({s.workload, s.description, [s](const RunSettings& run) { return bench_copy_task(s, run); }});
        for (const ViTSetup& s : {vit_patch7(), vit_default()})
            w.push_back({s.workload, s.description, [s](const RunSettings& run) { return bench_vit(s, run); }});
        w.push_back({"decode_cached", "greedy decoding per token with the KV cache, 16/64/256 tokens, copy task small model",
                     [](const RunSettings& run) { return bench_decode(Decoding::cached, run); }});
        w.push_back({"decode_recompute", "greedy decoding per token re-decoding the prefix, 16/64/256 tokens, same model",
                     [](const RunSettings& run) { return bench_decode(Decoding::recompute, run); }});
        return w;
    }();
    return all;
}

}  // namespace benchmarks
