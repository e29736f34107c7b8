// table-15-1: why not an RNN or a CNN (004 §15.5.5 Table 15.1 and Figure 15.27; 001 "Background").
//
// Table 15.1 sets three layers beside each other: self-attention costs O(n^2 d) and relates any
// two positions in O(1) steps; a recurrent layer costs O(n d^2), in n steps that run one after
// another, with a path of O(n) steps between distant positions; a convolution of kernel k costs
// O(k n d^2), and two positions n apart meet only after n / k layers (log_k n dilated). 001's
// "Background" draws the consequence: the longer the path, "the more difficult to learn
// dependencies between distant positions".
//
// Part 1 times one layer of each (d = 64, batch 1, forward and backward, one thread:
// scaling.h) as n grows, fits the exponent of the time against n on log-log axes, and reads each
// as quadratic or linear by the nearer of 2 and 1. (The GRU's n steps are n * 20 small ops, whose
// cost per step grows with the graph they leave behind: its slope comes out above 1.)
// Part 2 trains the three models of models/sequence_tagger.h (N = 2 layers, d = 32; the CNN's
// kernel 3, so it reaches 4 positions back, and dilated 1, 3, reaching 8) on the delayed copy:
// y_t = x_{t - k} for t >= k, so a token must travel k positions. Accuracy on held-out
// sequences, over the positions t >= k, mean and standard error over the seeds.
#include <algorithm>
#include <cmath>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/statistics.h"
#include "examples/experiments/tagger_training.h"
#include "examples/experiments/scaling.h"
#include "lectern/models/sequence_tagger.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/conv1d.h"
#include "lectern/nn/gru.h"
#include "lectern/nn/multi_head_attention.h"
#include "lectern/run/shell/console.h"

namespace run::experiments {

namespace {

using namespace autograd;
using models::SequenceLayer;

// ---- Part 1: cost against n

struct CostResult {
    std::vector<double> n, ms;
    double slope = 0;
};

// The time of one forward and backward of `layer` on x [1, n, d], for each n.
CostResult cost(const std::function<Tensor(const Tensor&)>& layer, const std::function<void()>& zero_grad,
                const std::vector<std::int64_t>& lengths, std::int64_t d, int repeats, double fit_from,
                Generator& gen) {
    CostResult r;
    for (std::int64_t n : lengths) {
        Tensor x = randn({1, n, d}, gen).requires_grad_();
        const Timing took = median_time(
            [&] {
                sum(layer(x)).backward();
                zero_grad();
            },
            repeats);
        r.n.push_back(static_cast<double>(n)), r.ms.push_back(1e3 * took.cpu);
    }
    std::vector<double> x, y;
    for (std::size_t i = 0; i < r.n.size(); ++i)
        if (r.n[i] >= fit_from) x.push_back(r.n[i]), y.push_back(r.ms[i]);
    r.slope = x.size() >= 2 ? log_log_slope(x, y) : log_log_slope(r.n, r.ms);
    return r;
}

// ---- Part 2: accuracy against the distance a token travels

// The delayed copy: x_t uniform over 1..V-1, y_t = x_{t-k} for t >= k, and -1 (not scored) before.
LabelledBatch delayed_copy(std::int64_t V, std::int64_t n, std::int64_t batch, std::int64_t k, Generator& gen) {
    const std::vector<double> x = uniform_symbols(V, n, batch, gen);
    std::vector<double> y(x.size());
    for (std::int64_t b = 0; b < batch; ++b)
        for (std::int64_t t = 0; t < n; ++t)
            y[static_cast<std::size_t>(b * n + t)] = t >= k ? x[static_cast<std::size_t>(b * n + t - k)] : -1;
    return {tensor(x, {batch, n}, Dtype::int64), tensor(y, {batch, n}, Dtype::int64)};
}

struct Arm {
    std::string name, short_name;
    SequenceLayer layer;
    bool dilated = false;
};

struct TaskSetup {
    std::int64_t vocab = 10, n = 32, batch = 32, steps = 600, eval = 256;
    double lr = 3e-3;
};

TaskSetup task_setup(const Options& o) {
    TaskSetup s;
    if (o.quick) s.n = 12, s.steps = 20, s.eval = 16;
    return s;
}

constexpr std::int64_t kKernel = 3;  // the convolutions'

TaggerRun tagger_run(const Arm& arm, const TaskSetup& s, std::int64_t layers, std::uint64_t seed) {
    TaggerRun r;
    r.model.layer = arm.layer, r.model.vocab = s.vocab, r.model.d_model = 32, r.model.n_layers = layers;
    r.model.heads = 4, r.model.d_ff = 64, r.model.kernel = kKernel, r.model.dilated = arm.dilated,
    r.model.max_len = s.n;
    r.batch = s.batch, r.steps = s.steps, r.eval = s.eval, r.lr = s.lr, r.seed = seed;
    return r;
}

// The held-out accuracy over the positions t >= k after training one model from `seed`.
double train_and_score(const Arm& arm, const TaskSetup& s, std::int64_t k, std::int64_t layers, std::uint64_t seed) {
    TaggerRun r = tagger_run(arm, s, layers, seed);
    r.stream = static_cast<std::uint64_t>(k);
    return train_tagger(r,
                        [&](std::int64_t batch, Generator& gen) { return delayed_copy(s.vocab, s.n, batch, k, gen); });
}

// Part 2's dilated convolutions reach k^N - 1 positions back, a count int64 holds only up to N = 39.
void check(const Options& o) {
    const std::int64_t most = models::max_conv_layers(kKernel, true);
    if (layers_or(o, 2) > most)
        throw CLI::ValidationError("--layers",
                                   fmt::format("{} layers of dilated convolutions (k {}) would reach {}^{} - 1 "
                                               "positions back, more than int64 counts: choose --layers {} or fewer",
                                               o.layers, kKernel, kKernel, o.layers, most));
}

// Part 2's largest run (tagger_memory bounds every kind of layer; Part 1 times one layer at batch 1).
Footprint footprint(const Options& o) {
    const TaskSetup s = task_setup(o);
    return {tagger_memory(tagger_run({"", "", SequenceLayer::self_attention}, s, layers_or(o, 2), o.seed), s.n)};
}

void run(const Options& o) {
    // Part 1.
    const std::int64_t d = 64;
    const std::vector<std::int64_t> lengths =
        o.quick ? std::vector<std::int64_t>{32, 64, 128} : std::vector<std::int64_t>{64, 128, 256, 512, 1024, 2048};
    const int repeats = o.quick ? 1 : 3;
    const double fit_from = o.quick ? 0 : 256;
    say("Part 1: one layer, d = {}, batch 1, forward + backward on one thread (median of {}), n = {}..{}\n", d, repeats,
        lengths.front(), lengths.back());
    Generator gen(o.seed);
    nn::MultiHeadAttention attention(d, 4, 0.0, gen);
    nn::GRU gru(d, d, gen);
    nn::Conv1d conv(d, d, 3, 1, ConvPadding::causal, gen);
    struct Layer {
        std::string name, short_name, expected;
        double want;
        CostResult r;
    };
    std::vector<Layer> layers = {
        {"self-attention (causal, 4 heads)", "attention", "O(n^2 d)", 2,
         cost([&](const Tensor& x) { return attention.self_attention(x, nn::subsequent_mask(x.size(1))); },
              [&] { attention.zero_grad(); }, lengths, d, repeats, fit_from, gen)},
        {"recurrent (GRU)", "GRU", "O(n d^2)", 1,
         cost(
             [&](const Tensor& x) {
                 // The steps apart, as the tagger feeds them (nn::GRU::forward_steps), each a leaf.
                 std::vector<Tensor> xs;
                 for (std::int64_t t = 0; t < x.size(1); ++t) xs.push_back(select(x, 1, t).detach().requires_grad_());
                 std::vector<Tensor> hs = gru.forward_steps(xs);
                 for (Tensor& h : hs) h = unsqueeze(h, 1);
                 return concat(hs, 1);
             },
             [&] { gru.zero_grad(); }, lengths, d, repeats, fit_from, gen)},
        {"convolutional (k 3)", "CNN", "O(k n d^2)", 1,
         cost([&](const Tensor& x) { return conv(x); }, [&] { conv.zero_grad(); }, lengths, d, repeats, fit_from, gen)},
    };
    Table times({"n", "layer", "CPU time (ms)"});
    for (std::size_t i = 0; i < lengths.size(); ++i)
        for (const Layer& l : layers) times.row({std::to_string(lengths[i]), l.name, fmt::format("{:.3f}", l.r.ms[i])});
    times.print();
    say("\nslopes of log time against log n, fitted over n >= {}:\n",
        static_cast<std::int64_t>(fit_from > 0 ? fit_from : lengths.front()));
    Table slopes({"layer", "Table 15.1", "slope", "expected"});
    plot::LinePlot cost_plot{"One layer, forward + backward (d = 64)",
                             "sequence length n",
                             "CPU milliseconds",
                             {},
                             true,
                             true};
    bool slopes_held = true;
    std::string slope_text;
    for (const Layer& l : layers) {
        slopes.row({l.name, l.expected, fmt::format("{:.2f}", l.r.slope), fmt::format("{:.0f}", l.want)});
        // Quadratic or linear: the nearer of the two exponents, 2 or 1 (the boundary is 1.5).
        slopes_held = slopes_held && (l.r.slope > 1.5) == (l.want == 2);
        slope_text += fmt::format("{}{} {:.2f}", slope_text.empty() ? "" : ", ", l.name, l.r.slope);
        cost_plot.curves.push_back({fmt::format("{}, slope {:.2f}", l.short_name, l.r.slope), l.r.n, l.r.ms});
    }
    slopes.print();

    // Part 2.
    const TaskSetup s = task_setup(o);
    const std::int64_t n_layers = layers_or(o, 2);
    const int seeds = seeds_or(o, 3);
    const std::vector<std::int64_t> distances =
        o.quick ? std::vector<std::int64_t>{1, 6} : std::vector<std::int64_t>{1, 2, 4, 8, 16, 24};
    const std::vector<Arm> arms = {{"self-attention", "attention", SequenceLayer::self_attention},
                                   {"recurrent (GRU)", "GRU", SequenceLayer::recurrent},
                                   {"convolutional (k 3)", "CNN, reach 4", SequenceLayer::convolutional},
                                   {"convolutional (k 3, dilated)", "CNN dilated, reach 8",
                                    SequenceLayer::convolutional, true}};
    say("\nPart 2: the delayed copy y_t = x_(t-k), V = {} symbols (chance {:.1f}%), n = {}, N = {} layers, d = 32, "
        "{} steps of batch {}, Adam lr {}, seeds {}..{}; accuracy over t >= k of {} held-out sequences\n",
        s.vocab - 1, 100.0 / static_cast<double>(s.vocab - 1), s.n, n_layers, s.steps, s.batch, s.lr, o.seed,
        o.seed + static_cast<std::uint64_t>(seeds) - 1, s.eval);
    Table accuracy({"k", "model", "reaches back", "accuracy (mean +- s.e.)", "per seed"});
    std::vector<std::vector<Estimate>> by_arm(arms.size());
    plot::LinePlot acc_plot{fmt::format("The delayed copy, mean of {} seeds", seeds),
                            "distance k a token travels",
                            "held-out accuracy (%)",
                            {},
                            false,
                            false};
    for (std::size_t a = 0; a < arms.size(); ++a) {
        plot::Curve curve{arms[a].short_name, {}, {}};
        for (std::int64_t k : distances) {
            std::vector<double> accs;
            std::string per_seed;
            for (int i = 0; i < seeds; ++i) {
                accs.push_back(train_and_score(arms[a], s, k, n_layers, o.seed + static_cast<std::uint64_t>(i)));
                per_seed += fmt::format("{}{:.1f}", i ? " " : "", 100 * accs.back());
            }
            const Estimate m = estimate(accs);
            by_arm[a].push_back(m);
            models::SequenceTaggerConfig c;
            c.layer = arms[a].layer, c.n_layers = n_layers, c.kernel = kKernel, c.dilated = arms[a].dilated;
            const std::int64_t reach = models::reach(c, s.n);
            accuracy.row({std::to_string(k), arms[a].name, reach >= s.n - 1 ? "all" : std::to_string(reach),
                          fmt::format("{:.1f}% +- {:.1f}", 100 * m.mean, 100 * m.standard_error), per_seed});
            curve.x.push_back(static_cast<double>(k)), curve.y.push_back(100 * m.mean);
        }
        acc_plot.curves.push_back(curve);
    }
    accuracy.print();
    const double chance = 100.0 / static_cast<double>(s.vocab - 1);
    // Chance drawn on to twice the largest distance, which leaves the legend room right of the curves.
    acc_plot.curves.push_back({"chance",
                               {static_cast<double>(distances.front()), 2.0 * static_cast<double>(distances.back())},
                               {chance, chance}});
    draw(o, "experiments_table_15_1",
         {"Table 15.1: self-attention, recurrent and convolutional layers (004 §15.5.5)",
          2,
          1300,
          520,
          {cost_plot, acc_plot},
          0.85});

    // The verdict: each slope is nearer Table 15.1's exponent (2 or 1) than the other, and at the largest distance
    // self-attention copies better than the GRU and both CNNs by more than twice the standard
    // error of the difference, having lost no more than that (plus 5 points) from the smallest.
    const Estimate attn_near = by_arm[0].front(), attn_far = by_arm[0].back();
    bool paths_held =
        attn_far.mean >= attn_near.mean - 0.05 - 2 * std::hypot(attn_far.standard_error, attn_near.standard_error);
    std::string far_text;
    for (std::size_t a = 1; a < arms.size(); ++a) {
        const Estimate other = by_arm[a].back();
        paths_held =
            paths_held && attn_far.mean - other.mean > 2 * std::hypot(attn_far.standard_error, other.standard_error);
        far_text += fmt::format(", {} {:.1f}% +- {:.1f}", arms[a].name, 100 * other.mean, 100 * other.standard_error);
    }
    verdict(
        o, slopes_held && paths_held,
        fmt::format("time slopes against n (expected nearer 2, 1, 1 than 1, 2, 2): {}; at k = {} self-attention copies "
                    "{:.1f}% +- {:.1f} (at k = {}: {:.1f}%){}",
                    slope_text, distances.back(), 100 * attn_far.mean, 100 * attn_far.standard_error, distances.front(),
                    100 * attn_near.mean, far_text));
}

}  // namespace

Experiment table_15_1_experiment() {
    return {"table-15-1",
            "self-attention's cost grows as n^2, a recurrent or convolutional layer's as n, and self-attention's "
            "O(1) path copies over distances where the RNN's O(n) and the CNN's n / k layers fail (004 §15.5.5 "
            "Table 15.1; 001 \"Background\")",
            run,
            {"--seeds", "--layers"},
            footprint,
            check};
}

}  // namespace run::experiments
