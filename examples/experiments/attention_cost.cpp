// attention-cost: what attention costs as the sequence grows (004 §15.5.5 table 15.1: a
// self-attention layer costs O(n^2 d); §15.6.1: attention within K blocks of N/K costs
// O(N^2 / K), so at a fixed block length L = N/K it grows as N L, linearly).
//
// One MultiHeadAttention layer (batch 1, d_model 64, 4 heads), forward and backward, at T =
// 128 .. 4096, six ways: full attention in both directions and causal; block-local with blocks
// of L = 64, causal and in both directions; strided in both directions with stride T / 64,
// so that each query, as in a block, reads 64 keys (nn::strided_mask: every S-th position);
// and the hybrid in both directions (nn::hybrid_mask), two heads in blocks of L = 64 and two
// strided with S = T / 64, so that each head's queries again read 64 keys; up to T = 64^2 = 4096,
// S <= L, and two such layers carry every position to every other. (At L = S = sqrt T each
// head would cost O(T sqrt T), but with d = 64 that term stays below the projections' O(T d^2)
// until sqrt T passes d: here it would not show in the slopes.)
// The local patterns run group by group (MultiHeadAttention::self_attention with a local AttentionPattern),
// so their scores are [T/64 groups, H, 64, 64], never [T, T]. Memory is what the forward leaves
// for the backward (the allocator's bytes in use with the graph alive, less those before): P's
// [H, T, T] for full attention. The slope of each on log-log axes is fitted over T >= 512,
// where the scores outweigh the projections' O(T d^2). Times are CPU times, which a busy
// machine does not inflate (scaling.h); the wall times are printed beside them.
#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "lectern/autograd/allocator.h"
#include "lectern/run/shell/console.h"
#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/scaling.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/multi_head_attention.h"

namespace run::experiments {

namespace {

using namespace autograd;

struct Variant {
    std::string name;
    bool local;  // reads a fixed number of keys per query
    std::function<Tensor(const nn::MultiHeadAttention&, const Tensor& x, const Tensor& causal)> forward;
};

constexpr std::int64_t kGroup = 64;  // keys per query of the local patterns

std::vector<Variant> variants() {
    return {
        {"full", false, [](const auto& m, const Tensor& x, const Tensor&) { return m.self_attention(x); }},
        {"full, causal", false, [](const auto& m, const Tensor& x, const Tensor& c) { return m.self_attention(x, c); }},
        {fmt::format("block-local L {}, causal", kGroup), true,
         [](const auto& m, const Tensor& x, const Tensor&) {
             return m.self_attention(x, Tensor(), nn::AttentionPattern::block_local(kGroup, nn::Direction::causal));
         }},
        {fmt::format("block-local L {}", kGroup), true,
         [](const auto& m, const Tensor& x, const Tensor&) {
             return m.self_attention(x, Tensor(),
                                     nn::AttentionPattern::block_local(kGroup, nn::Direction::bidirectional));
         }},
        {fmt::format("strided S = T/{}", kGroup), true,
         [](const auto& m, const Tensor& x, const Tensor&) {
             return m.self_attention(x, Tensor(),
                                     nn::AttentionPattern::strided(std::max<std::int64_t>(1, x.size(1) / kGroup),
                                                                   nn::Direction::bidirectional));
         }},
        {fmt::format("hybrid L {}, S = T/{}", kGroup, kGroup), true,
         [](const auto& m, const Tensor& x, const Tensor&) {
             return m.self_attention(x, Tensor(),
                                     nn::AttentionPattern::hybrid(kGroup, std::max<std::int64_t>(1, x.size(1) / kGroup),
                                                                  nn::Direction::bidirectional));
         }},
    };
}

// The slope over the points with T >= from (all of them if fewer than two are).
double slope_from(const std::vector<double>& T, const std::vector<double>& y, double from) {
    std::vector<double> x2, y2;
    for (std::size_t i = 0; i < T.size(); ++i)
        if (T[i] >= from) x2.push_back(T[i]), y2.push_back(y[i]);
    return x2.size() >= 2 ? log_log_slope(x2, y2) : log_log_slope(T, y);
}

void run(const Options& o) {
    const std::int64_t d_model = 64, heads = 4;
    const std::vector<std::int64_t> lengths =
        o.quick ? std::vector<std::int64_t>{128, 256, 512} : std::vector<std::int64_t>{128, 256, 512, 1024, 2048, 4096};
    const int repeats = o.quick ? 1 : 5;
    const double fit_from = o.quick ? 0 : 512;
    say("One attention layer, batch 1, d_model {}, {} heads, forward + backward (median of {}); local patterns read "
        "{} keys per query\n",
        d_model, heads, repeats, kGroup);
    Generator gen(o.seed);
    nn::MultiHeadAttention mha(d_model, heads, 0.0, gen);
    const std::vector<Variant> all = variants();
    std::vector<std::vector<double>> ms(all.size()), wall_ms(all.size()), mib(all.size());
    std::vector<double> Ts;
    Table table({"T", "variant", "CPU time (ms)", "wall time (ms)", "memory for backward (MiB)"});
    for (std::int64_t T : lengths) {
        Ts.push_back(static_cast<double>(T));
        Tensor x = randn({1, T, d_model}, gen).requires_grad_();
        const Tensor causal = nn::subsequent_mask(T);
        for (std::size_t v = 0; v < all.size(); ++v) {
            auto step = [&] {
                sum(all[v].forward(mha, x, causal)).backward();
                mha.zero_grad();
            };
            const Timing took = median_time(step, repeats);
            // A layer of its own, so that no earlier forward's P (last_attention) is freed in between.
            nn::MultiHeadAttention fresh(d_model, heads, 0.0, gen);
            const std::size_t before = allocator_stats().bytes_in_use;
            double bytes = 0;
            {
                Tensor y = all[v].forward(fresh, x, causal);  // the graph, with what backward needs, lives until y goes
                bytes = static_cast<double>(allocator_stats().bytes_in_use - before);
            }
            ms[v].push_back(1e3 * took.cpu), wall_ms[v].push_back(1e3 * took.wall), mib[v].push_back(bytes / (1 << 20));
            table.row({std::to_string(T), all[v].name, fmt::format("{:.2f}", 1e3 * took.cpu),
                       fmt::format("{:.2f}", 1e3 * took.wall), fmt::format("{:.2f}", bytes / (1 << 20))});
        }
    }
    table.print();
    say("\nslopes on log-log axes, fitted over T >= {}:\n",
        static_cast<std::int64_t>(fit_from > 0 ? fit_from : Ts.front()));
    Table slopes({"variant", "CPU time slope", "wall time slope", "memory slope", "expected"});
    bool held = true;
    std::string because;
    plot::LinePlot full_time{"CPU time of forward + backward: full",
                             "sequence length T",
                             "milliseconds",
                             {},
                             true,
                             true},
        local_time{"CPU time: local, 64 keys per query", "sequence length T", "milliseconds", {}, true, true},
        full_memory{"Memory kept for backward: full", "sequence length T", "MiB", {}, true, true},
        local_memory{"Memory kept for backward: local", "sequence length T", "MiB", {}, true, true};
    for (std::size_t v = 0; v < all.size(); ++v) {
        const double ts = slope_from(Ts, ms[v], fit_from), mslope = slope_from(Ts, mib[v], fit_from);
        const double want = all[v].local ? 1.0 : 2.0;
        slopes.row({all[v].name, fmt::format("{:.2f}", ts), fmt::format("{:.2f}", slope_from(Ts, wall_ms[v], fit_from)),
                    fmt::format("{:.2f}", mslope), fmt::format("{:.0f}", want)});
        held = held && std::abs(ts - want) < 0.4 && std::abs(mslope - want) < 0.4;
        because += fmt::format("{}{} {:.2f} (memory {:.2f})", because.empty() ? "" : ", ", all[v].name, ts, mslope);
        (all[v].local ? local_time : full_time).curves.push_back({all[v].name, Ts, ms[v]});
        (all[v].local ? local_memory : full_memory).curves.push_back({all[v].name, Ts, mib[v]});
    }
    slopes.print();
    // Guides through each panel's first point: what a slope of 2, and of 1, looks like.
    for (auto [panel, power] :
         {std::pair{&full_time, 2.0}, {&local_time, 1.0}, {&full_memory, 2.0}, {&local_memory, 1.0}}) {
        const double y0 = panel->curves.front().y.front();
        plot::Curve guide{fmt::format("slope {:.0f} (guide)", power), Ts, {}};
        for (double T : Ts) guide.y.push_back(y0 * std::pow(T / Ts.front(), power));
        panel->curves.push_back(guide);
    }
    draw(o, "experiments_attention_cost",
         {fmt::format("Full against local attention (batch 1, d_model {}, {} heads)", d_model, heads),
          2,
          1200,
          1100,
          {full_time, local_time, full_memory, local_memory}});
    verdict(o, held,
            fmt::format("CPU time slopes (expected 2 full, 1 local; within 0.4, and the memory's too): {}", because));
}

}  // namespace

Experiment attention_cost_experiment() {
    return {"attention-cost",
            "full attention's time and memory grow as T^2, attention within blocks of fixed length as T, and so does "
            "the hybrid of blocks and strides (004 table 15.1, §15.6.1)",
            run};
}

}  // namespace run::experiments
