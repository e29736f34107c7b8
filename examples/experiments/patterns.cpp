// patterns: what combining fixed patterns buys (004 §15.6.1: block-local, strided / dilated,
// "or hybrid patterns, where several fixed attention patterns are combined together"; Child et
// al. 2019's factorised attention).
//
// A block of L keys per query or a stride S each cut the cost of attention below O(n^2), but
// each alone leaves most pairs of positions apart however many layers are stacked: a block never
// looks outside itself, a stride never leaves its residue mod S. The hybrid gives half the heads
// each pattern (nn::AttentionPattern::hybrid); with S <= L, two layers carry every
// position to every other, at a cost per head of O(n L) or O(n^2 / S), O(n sqrt n) at
// L = S = sqrt n. The task needs every far pair: the reverse, y_t = x_{n-1-t}, tagged at every
// position of sequences of n = 64 (models::SequenceTagger, bidirectional, N = 2 layers,
// d_model 32, 4 heads, sinusoidal positions), with L = S = 8 = sqrt n. Block-local reaches
// x_{n-1-t} for no t (8 divides 64, so the mirror of a block is another block), strided for
// no t (n - 1 - 2t is odd, S even); full attention and the hybrid reach it for every t. Held-out
// accuracy, 3 seeds each, mean and standard error; the seeds pair the arms (statistics.h).
#include <cmath>

#include <fmt/format.h>

#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/statistics.h"
#include "examples/experiments/tagger_training.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/run/shell/console.h"

namespace run::experiments {

namespace {

using namespace autograd;
using Kind = nn::AttentionPattern::Kind;

constexpr std::int64_t kVocab = 10;  // symbols 1..9; 0 unused

// The reverse: y_t = x_{n-1-t} at every position.
LabelledBatch reversed(std::int64_t n, std::int64_t batch, Generator& gen) {
    const std::vector<double> x = uniform_symbols(kVocab, n, batch, gen);
    std::vector<double> y(x.size());
    for (std::int64_t b = 0; b < batch; ++b)
        for (std::int64_t t = 0; t < n; ++t)
            y[static_cast<std::size_t>(b * n + t)] = x[static_cast<std::size_t>(b * n + n - 1 - t)];
    return {tensor(x, {batch, n}, Dtype::int64), tensor(y, {batch, n}, Dtype::int64)};
}

struct Arm {
    std::string name;
    Kind kind;
};

// [H, n, n]: which keys each head of one layer reads.
Tensor head_masks(Kind kind, std::int64_t n, std::int64_t size, std::int64_t heads) {
    constexpr auto both = nn::Direction::bidirectional;
    switch (kind) {
        case Kind::full:
            return ones({heads, n, n}, Dtype::int64);
        case Kind::block_local:
            return concat(std::vector(heads, nn::block_local_mask(n, size, both)), 0);
        case Kind::strided:
            return concat(std::vector(heads, nn::strided_mask(n, size, both)), 0);
        case Kind::hybrid:
            return nn::hybrid_mask(n, size, size, heads, both);
    }
    return Tensor();
}

// One layer: the share of the heads that read key j from query i, [n * n].
std::vector<double> share_of_heads(const Tensor& masks) {
    const std::int64_t H = masks.size(0), n = masks.size(1);
    const std::vector<double> m = masks.to_vector();
    std::vector<double> share(static_cast<std::size_t>(n * n), 0.0);
    for (std::int64_t h = 0; h < H; ++h)
        for (std::int64_t e = 0; e < n * n; ++e)
            share[static_cast<std::size_t>(e)] += m[static_cast<std::size_t>(h * n * n + e)] / static_cast<double>(H);
    return share;
}

// `layers` layers: 1 where output i can hear input j through some chain of heads (each
// layer's residual also keeps what i held), else 0, [n * n].
std::vector<double> reach(const Tensor& masks, std::int64_t layers) {
    const std::int64_t n = masks.size(1);
    const std::vector<double> share = share_of_heads(masks);
    auto one = [&](std::int64_t i, std::int64_t j) { return i == j || share[static_cast<std::size_t>(i * n + j)] > 0; };
    std::vector<double> r(static_cast<std::size_t>(n * n));
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < n; ++j) r[static_cast<std::size_t>(i * n + j)] = one(i, j);
    for (std::int64_t l = 1; l < layers; ++l) {
        std::vector<double> next(r.size(), 0.0);
        for (std::int64_t i = 0; i < n; ++i)
            for (std::int64_t m = 0; m < n; ++m)
                if (one(i, m))
                    for (std::int64_t j = 0; j < n; ++j)
                        if (r[static_cast<std::size_t>(m * n + j)] > 0) next[static_cast<std::size_t>(i * n + j)] = 1;
        r = next;
    }
    return r;
}

std::int64_t sequence_length(const Options& o) { return o.quick ? 16 : 64; }

// What every pattern's run shares (the masks change which keys a head reads, not the sizes).
TaggerRun configure(const Options& o) {
    TaggerRun base;
    base.model.layer = models::SequenceLayer::self_attention, base.model.vocab = kVocab;
    base.model.d_model = 32, base.model.d_ff = 64, base.model.heads = 4, base.model.n_layers = layers_or(o, 2);
    base.model.max_len = sequence_length(o), base.model.bidirectional = true;
    base.steps = o.quick ? 20 : 1500, base.eval = o.quick ? 16 : 256, base.lr = 3e-3;
    return base;
}

void run(const Options& o) {
    const std::vector<Arm> arms = {{"full", Kind::full},
                                   {"block-local", Kind::block_local},
                                   {"strided", Kind::strided},
                                   {"hybrid", Kind::hybrid}};
    const int seeds = o.quick ? 1 : seeds_or(o, 3);
    const std::int64_t n = sequence_length(o), size = o.quick ? 4 : 8;
    const TaggerRun base = configure(o);
    const std::int64_t heads = base.model.heads;
    say("The reverse, y_t = x_(n-1-t), tagged at every position of sequences of n = {} over symbols 1..{} (chance "
        "{:.0f}%): bidirectional self-attention, N = {}, d_model {}, {} heads, L = S = {}; {} steps of batch {}, Adam "
        "lr "
        "{}; seeds {}..{}\n",
        n, kVocab - 1, 100.0 / static_cast<double>(kVocab - 1), base.model.n_layers, base.model.d_model, heads, size,
        base.steps, base.batch, base.lr, o.seed, o.seed + static_cast<std::uint64_t>(seeds) - 1);

    Table table(
        {"pattern", "keys per query and head", "targets in reach", "held-out accuracy, % (mean +- s.e.)", "per seed"});
    plot::BarChart bars{fmt::format("Held-out accuracy on the reverse, mean of {} seeds", seeds),
                        "pattern",
                        "accuracy (%)",
                        {},
                        {}};
    std::vector<plot::Panel> one_layer, deep;
    std::vector<std::vector<double>> accuracy;
    std::vector<Estimate> by_arm;
    for (const Arm& arm : arms) {
        const Tensor masks = head_masks(arm.kind, n, size, heads);
        const std::vector<double> share = share_of_heads(masks), far = reach(masks, base.model.n_layers);
        std::int64_t in_reach = 0;  // positions t whose target x_{n-1-t} the stack can hear
        for (std::int64_t t = 0; t < n; ++t) in_reach += far[static_cast<std::size_t>(t * n + n - 1 - t)] > 0;
        const double keys =
            sum(masks.to(Dtype::float64)).item() / static_cast<double>(heads * n);  // per query and head
        std::vector<double> accs;
        std::string per_seed;
        for (int s = 0; s < seeds; ++s) {
            TaggerRun r = base;
            r.model.attention = {arm.kind, arm.kind == Kind::full ? 0 : size};
            r.seed = o.seed + static_cast<std::uint64_t>(s);
            accs.push_back(
                train_tagger(r, [&](std::int64_t batch, Generator& gen) { return reversed(n, batch, gen); }));
            per_seed += fmt::format("{}{:.1f}", s ? " " : "", 100 * accs.back());
        }
        const Estimate m = estimate(accs);
        accuracy.push_back(accs), by_arm.push_back(m);
        table.row({arm.name, fmt::format("{:g}", keys), fmt::format("{} of {}", in_reach, n), pm(m, 1, 100), per_seed});
        bars.categories.push_back(arm.name), bars.values.push_back(100 * m.mean);
        const std::string label = arm.kind == Kind::full ? std::string("full")
                                  : arm.kind == Kind::hybrid
                                      ? fmt::format("hybrid, {} + {} heads", heads - heads / 2, heads / 2)
                                  : arm.kind == Kind::strided ? fmt::format("strided S {}", size)
                                                              : fmt::format("block-local L {}", size);
        // A colour bar beside the last panel of each row only.
        auto map = [&](std::string title, std::string x, std::string y, std::vector<double> values, std::string scale) {
            plot::HeatMap m;
            m.title = std::move(title), m.x_label = std::move(x), m.y_label = std::move(y), m.rows = n, m.cols = n;
            m.values = std::move(values), m.scale = {0, 1, std::move(scale)}, m.colour_bar = arm.kind == Kind::hybrid;
            return m;
        };
        one_layer.push_back(map(label + ": one layer", "key j", "query i", share, "share of heads"));
        deep.push_back(map(fmt::format("{}: {} layers", arm.name, base.model.n_layers), "input j", "output i", far,
                           "1: i hears j"));
    }
    table.print();
    std::vector<plot::Panel> panels = one_layer;
    panels.insert(panels.end(), deep.begin(), deep.end());
    draw(o, "experiments_patterns",
         {fmt::format("Fixed patterns over n = {} (004 §15.6.1): keys read (top), inputs each output hears (bottom)",
                      n),
          4, 1600, 820, panels, 0.8});
    draw(o, "experiments_patterns_accuracy",
         {fmt::format("Reversing {} tokens: which patterns reach far enough (004 §15.6.1)", n),
          1,
          800,
          480,
          {bars},
          0.9});

    // The verdict: the hybrid beats each pattern alone by more than 50 points, two standard
    // errors of the paired difference to spare, and lies within 5 points of full attention.
    const Estimate over_block = paired_difference(accuracy[3], accuracy[1]),
                   over_strided = paired_difference(accuracy[3], accuracy[2]),
                   from_full = paired_difference(accuracy[3], accuracy[0]);
    const bool held = exceeds(over_block, 0.5) && exceeds(over_strided, 0.5) && within(from_full, 0.05);
    verdict(o, held,
            fmt::format("held-out accuracy (%): hybrid {}, full {}, block-local {}, strided {}; the hybrid over "
                        "block-local {} points, "
                        "over strided {}, against full {} (must exceed each alone by 50 points and lie within 5 of "
                        "full, two standard errors to spare)",
                        pm(by_arm[3], 1, 100), pm(by_arm[0], 1, 100), pm(by_arm[1], 1, 100), pm(by_arm[2], 1, 100),
                        pm(over_block, 1, 100), pm(over_strided, 1, 100), pm(from_full, 1, 100)));
}

}  // namespace

Experiment patterns_experiment() {
    return {"patterns",
            "block-local or strided attention alone cannot bring a far token to every position; their hybrid, half "
            "the heads each, reaches every position in two layers as full attention does (004 §15.6.1)",
            run,
            {"--seeds", "--layers"},
            [](const Options& o) { return Footprint{tagger_memory(configure(o), sequence_length(o))}; }};
}

}  // namespace run::experiments
