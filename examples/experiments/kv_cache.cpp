// kv-cache: what caching saves in generation. 000 §15.5.4 note i: in greedy inference each layer
// keeps its inputs X of the tokens so far (key_value) and appends the new token's, so the new
// token is the only query; its keys and values are projected again from all of X at every step.
// Lectern's cache (nn::KVCache) keeps the projected keys and values instead, so a step also
// projects only the new token.
//
// A GPT (models/gpt.h) generates token after token, three ways. Recomputed, step t runs forward
// on the whole prefix of t tokens: per layer O(t d^2 + t^2 d). Inputs cached (note i), step t
// runs the layers on the newest token, each attending from it over keys and values projected
// from the t cached inputs: per layer the K and V projections of t rows, O(t d^2), and one
// token's query, output projection and MLP. Keys and values cached (Lectern's), step t runs
// forward_cached: one token's projections and MLP, O(d^2), and attention over t cached keys,
// O(t d). Times per generated token are measured at each prefix length (cached: each step's
// median over three generations, then the median of the eight steps ending there; recomputed:
// the median of three forwards), and their slopes on log-log axes fitted over lengths >= 64,
// beside the slopes that the operation counts predict. Times are the work, one thread's CPU
// time with the kernels on that thread alone (scaling.h): a step of a fraction of a
// millisecond is too short for the wall clock of a busy machine. They repeat measurements of
// one model, not seeds: what varies between runs is the machine, not the model.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "lectern/run/shell/console.h"
#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/scaling.h"
#include "lectern/autograd/errors.h"
#include "lectern/models/gpt.h"

namespace run::experiments {

namespace {

using namespace autograd;

// One generation step of 000 §15.5.4 note i: the newest token's ids_new [1, 1] through every
// layer, each appending its attention's input (LN(h), the blocks are pre-norm) to its cached
// inputs X [1, t, D] and projecting K and V from all of X; the token is the only query.
Tensor forward_inputs_cached(const models::GPT& model, const Tensor& ids_new, std::vector<Tensor>& inputs) {
    const std::int64_t past = inputs.front().defined() ? inputs.front().size(1) : 0;
    Tensor h = model.pos->forward(model.tok_embed->forward(ids_new), past);  // no dropout: the model is in eval mode
    for (std::size_t l = 0; l < model.blocks->size(); ++l) {
        const models::GPTBlock& block = (*model.blocks)[l];
        Tensor& x = inputs[l];
        h = (*block.sublayer)[0](h, [&](const Tensor& y) {
            x = x.defined() ? concat({x, y}, 1) : y;
            return block.attn->forward(y, x, x);
        });
        h = (*block.sublayer)[1](h, [&](const Tensor& y) { return block.mlp->forward(y); });
    }
    return model.head->forward(model.norm->forward(h));
}

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

models::GPTConfig model_config(const Options& o) {
    models::GPTConfig c;
    c.vocab = 64, c.context = o.quick ? 128 : 1024, c.d_model = o.quick ? 64 : 128,
    c.n_layers = layers_or(o, o.quick ? 2 : 4);
    c.heads = 4, c.d_ff = 4 * c.d_model, c.seed = o.seed;
    return c;
}

// No training: the weights, the two caches (keys and values [T, d] per layer, and 000's
// inputs [T, d] per layer), and the full forward at batch 1, which without gradients holds
// one layer's tensors at a time.
Footprint footprint(const Options& o) {
    const models::GPTConfig c = model_config(o);
    const auto T = static_cast<double>(c.context), D = static_cast<double>(c.d_model), F = static_cast<double>(c.d_ff),
               N = static_cast<double>(c.n_layers), H = static_cast<double>(c.heads), V = static_cast<double>(c.vocab);
    run::MemoryEstimate e;
    e.parameters = (V + T) * D + N * (4 * D * D + 2 * D * F);
    e.activations = 3 * N * T * D + run::transformer_activations(1, 1, T, D, F, H, T) + T * V;
    return {e, false};
}

void run(const Options& o) {
    const models::GPTConfig c = model_config(o);
    models::GPT model(c);
    model.eval();
    NoGradGuard no_grad;
    Generator gen(o.seed);
    const std::int64_t n = c.context;
    Tensor ids = zeros({1, n}, Dtype::int64);  // random tokens: the cost does not depend on which
    for (std::int64_t t = 0; t < n; ++t)
        ids.set({0, t}, static_cast<double>(gen.next_u64() % static_cast<std::uint64_t>(c.vocab)));
    say("A GPT of {} layers, d_model {}, {} heads, d_ff {}, generating {} tokens one at a time (batch 1)\n", c.n_layers,
        c.d_model, c.heads, c.d_ff, n);

    // Cached, both ways: every step's time, the prefix growing by one; the median of each step
    // over `passes` generations. The last step's logits of each are held to forward()'s.
    const int passes = o.quick ? 1 : 3;
    std::vector<std::vector<double>> pass_ms(static_cast<std::size_t>(n)), input_pass_ms(static_cast<std::size_t>(n));
    Tensor kv_last, input_last;
    for (int pass = 0; pass < passes; ++pass) {
        OneThread one;
        std::vector<nn::KVCache> caches(static_cast<std::size_t>(c.n_layers));
        std::vector<Tensor> inputs(static_cast<std::size_t>(c.n_layers));
        for (std::int64_t t = 0; t < n; ++t) {
            double start = thread_cpu_seconds();
            kv_last = model.forward_cached(narrow(ids, 1, t, 1), caches);
            pass_ms[static_cast<std::size_t>(t)].push_back(1e3 * (thread_cpu_seconds() - start));
            start = thread_cpu_seconds();
            input_last = forward_inputs_cached(model, narrow(ids, 1, t, 1), inputs);
            input_pass_ms[static_cast<std::size_t>(t)].push_back(1e3 * (thread_cpu_seconds() - start));
        }
    }
    const Tensor full_last = narrow(model.forward(ids), 1, n - 1, 1);
    auto largest_gap = [&](const Tensor& a) {
        const std::vector<double> x = a.to_vector(), y = full_last.to_vector();
        double gap = 0;
        for (std::size_t i = 0; i < x.size(); ++i) gap = std::max(gap, std::abs(x[i] - y[i]));
        return gap;
    };
    const double kv_gap = largest_gap(kv_last), input_gap = largest_gap(input_last);
    if (!(kv_gap < 1e-3 && input_gap < 1e-3))
        throw autograd::ValueError(
            fmt::format("kv-cache: the cached steps' last logits differ from forward()'s by {} "
                        "(keys and values) and {} (inputs)",
                        kv_gap, input_gap));
    say("the last step's logits, cached against forward() on the whole prefix: largest difference {:.1e} (keys and "
        "values), {:.1e} (inputs)\n",
        kv_gap, input_gap);
    std::vector<double> step_ms, input_step_ms;
    for (const auto& v : pass_ms) step_ms.push_back(median_of(v));
    for (const auto& v : input_pass_ms) input_step_ms.push_back(median_of(v));
    std::vector<double> lengths, cached, input_cached, recomputed, predicted_cached, predicted_input,
        predicted_recomputed;
    Table table({"prefix length t", "K, V cached (CPU ms/token)", "inputs X cached (000)", "recomputed",
                 "recomputed / K, V cached", "recomputed / X cached"});
    const double d = static_cast<double>(c.d_model), dff = static_cast<double>(c.d_ff);
    for (std::int64_t t = 16; t <= n; t *= 2) {
        const auto first = static_cast<std::ptrdiff_t>(std::max<std::int64_t>(0, t - 8));
        const double cached_ms = median_of({step_ms.begin() + first, step_ms.begin() + t});
        const double input_ms = median_of({input_step_ms.begin() + first, input_step_ms.begin() + t});
        Tensor prefix = narrow(ids, 1, 0, t);
        const double recomputed_ms = 1e3 * median_time([&] { model.forward(prefix); }, o.quick ? 1 : 3).cpu;
        const auto tt = static_cast<double>(t);
        lengths.push_back(tt), cached.push_back(cached_ms), input_cached.push_back(input_ms);
        recomputed.push_back(recomputed_ms);
        // Multiply-adds per layer: the projections 4 d^2 and the MLP 2 d d_ff per token, and
        // attention 2 d per (query, key) pair; caching the inputs projects K and V, 2 d^2, for all t.
        predicted_cached.push_back(4 * d * d + 2 * d * dff + 2 * tt * d);
        predicted_input.push_back(2 * d * d + 2 * d * dff + 2 * tt * d * d + 2 * tt * d);
        predicted_recomputed.push_back(tt * (4 * d * d + 2 * d * dff) + 2 * tt * tt * d);
        table.row({std::to_string(t), fmt::format("{:.3f}", cached_ms), fmt::format("{:.3f}", input_ms),
                   fmt::format("{:.3f}", recomputed_ms), fmt::format("{:.1f}x", recomputed_ms / cached_ms),
                   fmt::format("{:.1f}x", recomputed_ms / input_ms)});
    }
    table.print();
    auto fitted = [&](const std::vector<double>& y) {
        std::vector<double> x2, y2;
        for (std::size_t i = 0; i < lengths.size(); ++i)
            if (lengths[i] >= 64) x2.push_back(lengths[i]), y2.push_back(y[i]);
        return log_log_slope(x2, y2);
    };
    const double s_cached = fitted(cached), s_input = fitted(input_cached), s_recomputed = fitted(recomputed);
    const double p_cached = fitted(predicted_cached), p_input = fitted(predicted_input),
                 p_recomputed = fitted(predicted_recomputed);
    say("\n");
    Table slopes({"", "slope of time per token, t >= 64", "slope the operation counts predict"});
    slopes.row({"K, V cached", fmt::format("{:.2f}", s_cached), fmt::format("{:.2f}", p_cached)});
    slopes.row({"inputs X cached (000)", fmt::format("{:.2f}", s_input), fmt::format("{:.2f}", p_input)});
    slopes.row({"recomputed", fmt::format("{:.2f}", s_recomputed), fmt::format("{:.2f}", p_recomputed)});
    slopes.print();

    plot::LinePlot per_token{"CPU time per generated token", "prefix length t", "milliseconds", {}, true, true};
    per_token.curves.push_back({"recomputed", lengths, recomputed});
    per_token.curves.push_back({"inputs X cached (000 note i)", lengths, input_cached});
    per_token.curves.push_back({"keys and values cached", lengths, cached});
    plot::Curve every_step{"keys and values cached", {}, {}}, every_input_step{"inputs X cached", {}, {}};
    for (std::size_t t = 0; t < step_ms.size(); ++t) {
        if (step_ms[t] > 0) every_step.x.push_back(static_cast<double>(t + 1)), every_step.y.push_back(step_ms[t]);
        if (input_step_ms[t] > 0)
            every_input_step.x.push_back(static_cast<double>(t + 1)), every_input_step.y.push_back(input_step_ms[t]);
    }
    plot::LinePlot steps{passes > 1 ? fmt::format("Every cached step (median of {} generations)", passes)
                                    : "Every cached step",
                         "prefix length t",
                         "CPU milliseconds",
                         {every_input_step, every_step},
                         true,
                         true};
    draw(o, "experiments_kv_cache",
         {fmt::format("Generation recomputed, with 000's cache of inputs and with the key/value cache (GPT, {} layers, "
                      "d_model {})",
                      c.n_layers, c.d_model),
          2,
          1200,
          560,
          {per_token, steps}});

    // 000's note as a measurement: with the inputs cached, a step's time grows more slowly with
    // the prefix than recomputation's and is well below it at the longest prefix; caching the
    // projections as well flattens it further (its slope lower still, its step cheaper still).
    const double speedup = recomputed.back() / cached.back(), input_speedup = recomputed.back() / input_cached.back();
    verdict(o, s_recomputed > s_input + 0.2 && s_input > s_cached + 0.2 && input_speedup > 3 && speedup > input_speedup,
            fmt::format("time per token grows with slope {:.2f} recomputed, {:.2f} with the inputs cached, {:.2f} with "
                        "keys and values cached (operation counts: {:.2f}, {:.2f}, {:.2f}); at t = {} recomputing "
                        "costs {:.1f}x the step with cached inputs and {:.1f}x the step with cached keys and values",
                        s_recomputed, s_input, s_cached, p_recomputed, p_input, p_cached, n, input_speedup, speedup));
}

}  // namespace

Experiment kv_cache_experiment() {
    return {"kv-cache",
            "caching each layer's inputs X makes the new token the only query of a generation step (000 §15.5.4 note "
            "i); caching their projected keys and values (Lectern's) leaves one token's work",
            run,
            {"--layers"},
            footprint};
}

}  // namespace run::experiments
