#include "benchmarks/train_timing.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <vector>

#include "benchmarks/peak_rss.h"

namespace benchmarks {

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double ms_since(std::chrono::steady_clock::time_point t0, std::chrono::steady_clock::time_point t1) {
    return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

}  // namespace

PhaseTimes time_training_steps(const TrainingStep& step, int warmup, int steps) {
    using clock = std::chrono::steady_clock;
    std::vector<double> forward, backward, optimizer, whole;
    for (int i = 0; i < warmup + steps; ++i) {
        step.next_batch();
        auto t0 = clock::now();
        autograd::Tensor loss = step.forward();
        (void)loss.item();
        auto t1 = clock::now();
        loss.backward();
        auto t2 = clock::now();
        step.update();
        auto t3 = clock::now();
        if (i < warmup) continue;
        forward.push_back(ms_since(t0, t1));
        backward.push_back(ms_since(t1, t2));
        optimizer.push_back(ms_since(t2, t3));
        whole.push_back(ms_since(t0, t3));
    }
    PhaseTimes t;
    t.forward_ms = median(forward);
    t.backward_ms = median(backward);
    t.optimizer_ms = median(optimizer);
    t.step_ms = median(whole);
    t.step_mean_ms = std::accumulate(whole.begin(), whole.end(), 0.0) / static_cast<double>(whole.size());
    return t;
}

Record training_record(const TrainingFigures& f) {
    Record r;
    r.strings = {{"framework", "lectern"}, {"kind", "train"}, {"workload", f.workload}, {"description", f.description},
                 {"unit", f.unit}};
    r.numbers = {{"batch", static_cast<double>(f.batch)},
                 {"items_per_step", static_cast<double>(f.items_per_step)},
                 {"warmup", f.warmup},
                 {"steps", f.steps},
                 {"flops_per_step", f.flops_per_step},
                 {"forward_ms", f.times.forward_ms},
                 {"backward_ms", f.times.backward_ms},
                 {"optimizer_ms", f.times.optimizer_ms},
                 {"step_ms", f.times.step_ms},
                 {"step_mean_ms", f.times.step_mean_ms},
                 {"peak_rss_mb", peak_rss_mb()}};
    return r;
}

}  // namespace benchmarks
