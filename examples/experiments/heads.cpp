// heads: one head against several at equal width (001 "Multi-head attention": "Multi-head
// attention allows the model to jointly attend to information from different representation
// subspaces at different positions. With a single attention head, averaging inhibits this.";
// 004 §15.5.2 eq. 15.55-15.56).
//
// The task needs two positions at once: at position t the label is the ordered pair
// (x_{t-2}, x_{t-5}) of symbols from 1..5, one class of 25. One layer of causal self-attention
// (models::SequenceTagger, N = 1, d_model 32, sinusoidal positions, then the feed-forward
// network and the head) must bring both tokens to t. One head forms one average of the values:
// weighting the two positions equally loses which symbol came from where, so the pair must be
// read off unequal weights; h heads of d_k = 32 / h can each fetch one position. h = 1, 2, 4, 8
// at the same width and the same parameter count, 3 seeds each.
#include <cmath>

#include <fmt/format.h>

#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/statistics.h"
#include "examples/experiments/tagger_training.h"
#include "lectern/run/shell/console.h"

namespace run::experiments {

namespace {

using namespace autograd;

constexpr std::int64_t kSymbols = 5, kNear = 2, kFar = 5;  // symbols 1..5; the pair (x_{t-2}, x_{t-5})

// Labels (x_{t-2} - 1) * 5 + (x_{t-5} - 1) for t >= 5, -1 before.
LabelledBatch ordered_pairs(std::int64_t n, std::int64_t batch, Generator& gen) {
    const std::vector<double> x = uniform_symbols(kSymbols + 1, n, batch, gen);
    std::vector<double> y(x.size(), -1);
    for (std::int64_t b = 0; b < batch; ++b)
        for (std::int64_t t = kFar; t < n; ++t) {
            const auto at = [&](std::int64_t s) { return x[static_cast<std::size_t>(b * n + s)]; };
            y[static_cast<std::size_t>(b * n + t)] = (at(t - kNear) - 1) * kSymbols + (at(t - kFar) - 1);
        }
    return {tensor(x, {batch, n}, Dtype::int64), tensor(y, {batch, n}, Dtype::int64)};
}

const std::vector<std::int64_t> kHeadCounts = {1, 2, 4, 8};
constexpr std::int64_t kLength = 16;  // n, of every sequence

// What every head count's run shares.
TaggerRun configure(const Options& o) {
    TaggerRun base;
    base.model.layer = models::SequenceLayer::self_attention, base.model.vocab = kSymbols * kSymbols;
    base.model.d_model = 32, base.model.d_ff = 64, base.model.n_layers = layers_or(o, 1);
    base.model.max_len = kLength;
    base.steps = o.quick ? 20 : 800, base.eval = o.quick ? 16 : 256, base.lr = 3e-3;
    return base;
}

// The most heads: attention weights [B, h, n, n] grow with h.
Footprint footprint(const Options& o) {
    TaggerRun r = configure(o);
    r.model.heads = kHeadCounts.back();
    return {tagger_memory(r, kLength)};
}

void run(const Options& o) {
    const std::vector<std::int64_t>& head_counts = kHeadCounts;
    const int seeds = seeds_or(o, 3);
    const TaggerRun base = configure(o);
    const std::int64_t n = kLength;
    say("The ordered pair (x_(t-{}), x_(t-{})) of symbols 1..{} ({} classes, chance {:.0f}%) at every t >= {} of "
        "sequences of {}: causal self-attention, N = {}, d_model {}, d_ff {}, {} steps of batch {}, Adam lr {}; "
        "seeds {}..{}\n",
        kNear, kFar, kSymbols, kSymbols * kSymbols, 100.0 / (kSymbols * kSymbols), kFar, n, base.model.n_layers,
        base.model.d_model, base.model.d_ff, base.steps, base.batch, base.lr, o.seed,
        o.seed + static_cast<std::uint64_t>(seeds) - 1);
    Table table({"heads h", "d_k", "parameters", "held-out accuracy (mean +- s.e.)", "per seed"});
    plot::BarChart bars{fmt::format("Held-out accuracy, mean of {} seeds", seeds),
                        "heads h (d_k = 32 / h)",
                        "accuracy (%)",
                        {},
                        {}};
    std::vector<Estimate> by_heads;
    for (std::int64_t h : head_counts) {
        std::vector<double> accs;
        std::string per_seed;
        for (int s = 0; s < seeds; ++s) {
            TaggerRun r = base;
            r.model.heads = h, r.seed = o.seed + static_cast<std::uint64_t>(s);
            accs.push_back(
                train_tagger(r, [&](std::int64_t batch, Generator& gen) { return ordered_pairs(n, batch, gen); }));
            per_seed += fmt::format("{}{:.1f}", s ? " " : "", 100 * accs.back());
        }
        const Estimate m = estimate(accs);
        by_heads.push_back(m);
        models::SequenceTaggerConfig c = base.model;
        c.heads = h;
        table.row({std::to_string(h), std::to_string(base.model.d_model / h),
                   std::to_string(models::SequenceTagger(c).parameter_count()),
                   fmt::format("{:.1f}% +- {:.1f}", 100 * m.mean, 100 * m.standard_error), per_seed});
        bars.categories.push_back(fmt::format("{} (d_k {})", h, base.model.d_model / h));
        bars.values.push_back(100 * m.mean);
    }
    table.print();
    draw(o, "experiments_heads",
         {"One head against several at equal width (001 \"Multi-head attention\")", 1, 800, 480, {bars}, 0.9});

    // The verdict: every h >= 2 beats one head by more than twice the standard error of the difference.
    bool held = true;
    std::string because;
    for (std::size_t i = 1; i < head_counts.size(); ++i) {
        held = held && by_heads[i].mean - by_heads[0].mean >
                           2 * std::hypot(by_heads[i].standard_error, by_heads[0].standard_error);
        because += fmt::format(", h {} {:.1f}% +- {:.1f}", head_counts[i], 100 * by_heads[i].mean,
                               100 * by_heads[i].standard_error);
    }
    verdict(o, held,
            fmt::format("held-out accuracy with one head {:.1f}% +- {:.1f}{} (each must exceed one head's by "
                        "twice the standard error of the difference)",
                        100 * by_heads[0].mean, 100 * by_heads[0].standard_error, because));
}

}  // namespace

Experiment heads_experiment() {
    return {"heads",
            "several heads attend to several positions at once where one head must average them: at equal width, "
            "h > 1 heads fetch two tokens that one head cannot (001 \"Multi-head attention\")",
            run,
            {"--seeds", "--layers"},
            footprint};
}

}  // namespace run::experiments
