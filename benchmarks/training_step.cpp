
#include "benchmarks/training_step.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <vector>

#include "benchmarks/machine.h"

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
    r.strings = {{"framework", "lectern"},
                 {"kind", "train"},
                 {"workload", f.workload},
                 {"description", f.description},
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

namespace {

double linear(std::int64_t tokens, std::int64_t in, std::int64_t out) {
    return 2.0 * static_cast<double>(tokens) * static_cast<double>(in) * static_cast<double>(out);
}

// Q K^T and P V over every (batch, head): 2 * (2 B Tq Tk d_model).
double attention_products(std::int64_t batch, std::int64_t tq, std::int64_t tk, std::int64_t d_model) {
    return 2 * 2.0 * static_cast<double>(batch) * static_cast<double>(tq) * static_cast<double>(tk) *
           static_cast<double>(d_model);
}

}  // namespace

double transformer_step_flops(const TransformerShape& s) {
    const std::int64_t D = s.d_model, S = s.batch * s.src_len, T = s.batch * s.tgt_len;
    const double encoder_layer = 4 * linear(S, D, D) + attention_products(s.batch, s.src_len, s.src_len, D) +
                                 linear(S, D, s.d_ff) + linear(S, s.d_ff, D);
    const double decoder_layer = 4 * linear(T, D, D) + attention_products(s.batch, s.tgt_len, s.tgt_len, D)  // self
                                 + 2 * linear(T, D, D) +
                                 2 * linear(S, D, D)  // cross: Q, O on the target; K, V on memory
                                 + attention_products(s.batch, s.tgt_len, s.src_len, D)  //
                                 + linear(T, D, s.d_ff) + linear(T, s.d_ff, D);
    const double forward = static_cast<double>(s.layers) * (encoder_layer + decoder_layer) + linear(T, D, s.vocab);
    return 3 * forward;  // the embeddings are lookups; every product's input needs a gradient
}

double vit_step_flops(const ViTShape& s) {
    const std::int64_t grid = s.image_size / s.patch, patches = grid * grid, N = patches + 1, D = s.d_model;
    const std::int64_t tokens = s.batch * N;
    const double patch_projection = linear(s.batch * patches, s.patch * s.patch * s.channels, D);
    const double layer = 4 * linear(tokens, D, D) + attention_products(s.batch, N, N, D) + linear(tokens, D, s.mlp) +
                         linear(tokens, s.mlp, D);
    const double forward = patch_projection + static_cast<double>(s.depth) * layer + linear(s.batch, D, s.classes);
    return 3 * forward - patch_projection;  // no gradient for the pixels
}

}  // namespace benchmarks
