// kv-cache: what caching the keys and values saves in generation. 000 §15.5.4 note i: in greedy
// inference each layer keeps its inputs X of the tokens so far (key_value) and appends the new
// token's, so the new token is the only query. Lectern's cache (nn::KVCache) keeps the projected
// keys and values instead, so a step also projects only the new token: one token's work
// instead of the whole prefix's.
//
// A GPT (models/gpt.h) generates token after token. Cached, step t runs forward_cached on the
// newest token: per layer the projections and MLP of one token, O(d^2), and its attention over
// the t cached keys, O(t d). Recomputed, step t runs forward on the whole prefix of t tokens:
// O(t d^2 + t^2 d) per layer. Times per generated token are measured at each prefix length
// (cached: each step's median over three generations, then the median of the eight steps
// ending there; recomputed: the median of three forwards), and their slopes on log-log axes fitted over lengths >= 64, beside the slopes
// that the operation counts predict. Times are the work, one thread's CPU time with the
// kernels on that thread alone (scaling.h): a step of a fraction of a millisecond is too
// short for the wall clock of a busy machine.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "lectern/run/console.h"
#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/scaling.h"
#include "lectern/models/gpt.h"

namespace run::experiments {

namespace {

using namespace autograd;

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void run(const Options& o) {
    models::GPTConfig c;
    c.vocab = 64, c.context = o.quick ? 128 : 1024, c.d_model = o.quick ? 64 : 128, c.n_layers = layers_or(o, o.quick ? 2 : 4);
    c.heads = 4, c.d_ff = 4 * c.d_model, c.seed = o.seed;
    models::GPT model(c);
    model.eval();
    NoGradGuard no_grad;
    Generator gen(o.seed);
    const std::int64_t n = c.context;
    Tensor ids = zeros({1, n}, Dtype::int64);  // random tokens: the cost does not depend on which
    for (std::int64_t t = 0; t < n; ++t) ids.set({0, t}, static_cast<double>(gen.next_u64() % static_cast<std::uint64_t>(c.vocab)));
    say("A GPT of {} layers, d_model {}, {} heads, d_ff {}, generating {} tokens one at a time (batch 1)\n", c.n_layers,
        c.d_model, c.heads, c.d_ff, n);

    // Cached: every step's time, the prefix growing by one; the median of each step over
    // `passes` generations.
    const int passes = o.quick ? 1 : 3;
    std::vector<std::vector<double>> pass_ms(static_cast<std::size_t>(n));
    for (int pass = 0; pass < passes; ++pass) {
        OneThread one;
        std::vector<nn::KVCache> caches(static_cast<std::size_t>(c.n_layers));
        for (std::int64_t t = 0; t < n; ++t) {
            const double start = thread_cpu_seconds();
            model.forward_cached(narrow(ids, 1, t, 1), caches);
            pass_ms[static_cast<std::size_t>(t)].push_back(1e3 * (thread_cpu_seconds() - start));
        }
    }
    std::vector<double> step_ms;
    for (const auto& v : pass_ms) step_ms.push_back(median_of(v));
    std::vector<double> lengths, cached, recomputed, predicted_cached, predicted_recomputed;
    Table table({"prefix length t", "cached (CPU ms/token)", "recomputed (CPU ms/token)", "recomputed / cached"});
    const double d = static_cast<double>(c.d_model), dff = static_cast<double>(c.d_ff);
    for (std::int64_t t = 16; t <= n; t *= 2) {
        const auto first = static_cast<std::ptrdiff_t>(std::max<std::int64_t>(0, t - 8));
        const double cached_ms = median_of({step_ms.begin() + first, step_ms.begin() + t});
        Tensor prefix = narrow(ids, 1, 0, t);
        const double recomputed_ms = 1e3 * median_time([&] { model.forward(prefix); }, o.quick ? 1 : 3).cpu;
        const auto tt = static_cast<double>(t);
        lengths.push_back(tt), cached.push_back(cached_ms), recomputed.push_back(recomputed_ms);
        // Multiply-adds per layer: the projections 4 d^2 and the MLP 2 d d_ff per token, and
        // attention 2 d per (query, key) pair.
        predicted_cached.push_back(4 * d * d + 2 * d * dff + 2 * tt * d);
        predicted_recomputed.push_back(tt * (4 * d * d + 2 * d * dff) + 2 * tt * tt * d);
        table.row({std::to_string(t), fmt::format("{:.3f}", cached_ms), fmt::format("{:.3f}", recomputed_ms),
                   fmt::format("{:.1f}x", recomputed_ms / cached_ms)});
    }
    table.print();
    auto fitted = [&](const std::vector<double>& y) {
        std::vector<double> x2, y2;
        for (std::size_t i = 0; i < lengths.size(); ++i)
            if (lengths[i] >= 64) x2.push_back(lengths[i]), y2.push_back(y[i]);
        return log_log_slope(x2, y2);
    };
    const double s_cached = fitted(cached), s_recomputed = fitted(recomputed);
    const double p_cached = fitted(predicted_cached), p_recomputed = fitted(predicted_recomputed);
    say("\n");
    Table slopes({"", "slope of time per token, t >= 64", "slope the operation counts predict"});
    slopes.row({"cached", fmt::format("{:.2f}", s_cached), fmt::format("{:.2f}", p_cached)});
    slopes.row({"recomputed", fmt::format("{:.2f}", s_recomputed), fmt::format("{:.2f}", p_recomputed)});
    slopes.print();

    plot::LinePlot per_token{"CPU time per generated token", "prefix length t", "milliseconds", {}, true, true};
    per_token.curves.push_back({"recomputed", lengths, recomputed});
    per_token.curves.push_back({"cached", lengths, cached});
    plot::Curve every_step{"cached, every step", {}, {}};
    for (std::size_t t = 0; t < step_ms.size(); ++t)
        if (step_ms[t] > 0) every_step.x.push_back(static_cast<double>(t + 1)), every_step.y.push_back(step_ms[t]);
    plot::LinePlot steps{passes > 1 ? fmt::format("Every cached step (median of {} generations)", passes) : "Every cached step",
                         "prefix length t", "CPU milliseconds", {every_step}, true, true};
    draw(o, "experiments_kv_cache",
         {fmt::format("Generation with and without the key/value cache (GPT, {} layers, d_model {})", c.n_layers,
                      c.d_model),
          2, 1200, 560, {per_token, steps}});

    // 000's note as a measurement: recomputation grows with the prefix (about its slope), the
    // cached step much less, and at the longest prefix the cache is the faster by far.
    const double speedup = recomputed.back() / cached.back();
    verdict(s_recomputed > s_cached + 0.5 && speedup > 5,
            fmt::format("time per token grows with slope {:.2f} recomputed against {:.2f} cached (operation counts: "
                        "{:.2f} and {:.2f}); at t = {} recomputing costs {:.1f}x the cached step",
                        s_recomputed, s_cached, p_recomputed, p_cached, n, speedup));
}

}  // namespace

Experiment kv_cache_experiment() {
    return {"kv-cache",
            "with cached keys and values a generation step does one token's work, not the whole prefix's (Lectern's "
            "cache of projected keys and values; 000 §15.5.4 note i caches the layer inputs)",
            run,
            {"--layers"}};
}

}  // namespace run::experiments
