// scale: why attention divides the scores by sqrt(d_k) (001 "Scaled Dot-Product Attention" and
// its footnote; 002 "Why Use the 1/sqrt(D_K) Scaling?"; 003's temperature sqrt(d_K)).
//
// 001's footnote: for q and k with independent unit-variance components, q.k has variance
// d_k, so unscaled scores grow with d_k and push the softmax "into regions where it has
// extremely small gradients". 002: without the scale the weights are sharp at initialisation;
// with it they start near uniform and training converges faster.
//
// Part 1 measures P = softmax(q K^T [/ sqrt(d_k)]) for q, k ~ N(0, 1) (what make_transformer's
// Glorot projections give a unit-variance input, tested in test_scaled_dot_product_attention):
// per row, its entropy, its largest weight, and the Frobenius norm of the softmax's Jacobian
// diag(p) - p p^T at its input, sqrt(S2 - 2 S3 + S2^2) with S_m = sum_j p_j^m. Part 2 trains
// the copy task at d_k = 16, 64, 256 (one layer, one head, d_model = d_k) with and without the scale
// (TransformerConfig::scaled_attention), and with additive attention, 001's other compatibility
// function (TransformerConfig::compatibility): 001 says the two "perform similarly" for small d_k and
// additive "outperforms dot product attention without scaling for larger values of d_k". 3 seeds each;
// --d-k, --layers and --seeds change the widths, the layers and the seeds. The arms of a seed see
// the same batches, so they are compared seed by seed (statistics.h).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "lectern/run/shell/console.h"
#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/seq2seq_training.h"
#include "examples/experiments/statistics.h"
#include "examples/experiments/window_means.h"
#include "lectern/nn/scaled_dot_product_attention.h"

namespace run::experiments {

namespace {

using namespace autograd;

struct Sharpness {
    double entropy = 0, largest = 0, jacobian = 0;  // means over rows
};

// P for `rows` queries over `keys` keys, q and k ~ N(0, 1) of width d_k.
Sharpness sharpness_at_init(std::int64_t dk, bool scaled, std::int64_t rows, std::int64_t keys, std::uint64_t seed) {
    Generator gen(seed);
    NoGradGuard no_grad;
    Tensor q = randn({rows, 1, dk}, gen, Dtype::float64), k = randn({rows, keys, dk}, gen, Dtype::float64);
    const std::vector<double> p = nn::attention_weights(q, k, Tensor(), scaled).to_vector();
    Sharpness s;
    for (std::int64_t r = 0; r < rows; ++r) {
        double h = 0, top = 0, s2 = 0, s3 = 0;
        for (std::int64_t j = 0; j < keys; ++j) {
            const double pj = p[static_cast<std::size_t>(r * keys + j)];
            if (pj > 0) h -= pj * std::log(pj);
            top = std::max(top, pj), s2 += pj * pj, s3 += pj * pj * pj;
        }
        s.entropy += h, s.largest += top, s.jacobian += std::sqrt(std::max(0.0, s2 - 2 * s3 + s2 * s2));
    }
    const auto n = static_cast<double>(rows);
    return {s.entropy / n, s.largest / n, s.jacobian / n};
}

// Part 2's three arms: q.k / sqrt(d_k), q.k, v^T tanh(W_q q + W_k k).
enum Arm { unscaled, scaled, additive };

// Part 2's runs: the widths trained, and what every arm shares.
std::vector<std::int64_t> trained_widths(const Options& o) {
    return o.d_k.empty() ? std::vector<std::int64_t>{16, 64, 256} : o.d_k;
}

Seq2SeqRun part2_base(const Options& o) {
    Seq2SeqRun base;
    base.model.n_layers = layers_or(o, 1), base.model.heads = 1, base.model.dropout = 0.0;
    base.lr_factor = 0.5;
    base.steps = o.quick ? 12 : 400, base.warmup = o.quick ? 4 : 100, base.batch = 32, base.seq_len = 10;
    base.eval_sequences = o.quick ? 20 : 200, base.seed = o.seed;
    return base;
}

// One head, d_model = d_k, d_ff = 2 d_model.
Seq2SeqRun arm_run(const Seq2SeqRun& base, std::int64_t dk, Arm arm) {
    Seq2SeqRun r = base;
    r.model.d_model = dk, r.model.d_ff = 2 * dk, r.model.scaled_attention = arm != unscaled;
    if (arm == additive) r.model.compatibility = nn::Compatibility::additive;
    return r;
}

// The widest additive arm, the largest of Part 2's runs (Part 1 holds a few thousand rows).
Footprint footprint(const Options& o) {
    const std::vector<std::int64_t> widths = trained_widths(o);
    return {seq2seq_memory(arm_run(part2_base(o), *std::max_element(widths.begin(), widths.end()), additive))};
}

void run(const Options& o) {
    // Part 1: at initialisation.
    const std::int64_t keys = 32, rows = o.quick ? 200 : 2000;
    const std::vector<std::int64_t> widths = {16, 32, 64, 128, 256, 512};
    say("Part 1: P = softmax(q K^T [/ sqrt(d_k)]) over {} keys, q and k ~ N(0, 1), means over {} queries\n", keys,
        rows);
    Table init({"d_k", "scaled", "entropy (max ln 32 = 3.47)", "largest weight", "|softmax Jacobian|"});
    plot::LinePlot entropy{fmt::format("Entropy of P (uniform: ln {} = {:.2f})", keys,
                                       std::log(static_cast<double>(keys))),
                           "d_k",
                           "nats",
                           {},
                           true,
                           true},
        largest{"Largest weight of P", "d_k", "weight", {}, true, true},
        jacobian{"Softmax's gradient", "d_k", "|diag(p) - p p^T| (Frobenius)", {}, true, true};
    std::vector<Sharpness> by_scale[2];
    for (bool scaled : {true, false}) {
        plot::Curve e{scaled ? "scaled" : "unscaled", {}, {}}, l = e, j = e;
        for (std::int64_t dk : widths) {
            const Sharpness s = sharpness_at_init(dk, scaled, rows, keys, o.seed + static_cast<std::uint64_t>(dk));
            by_scale[scaled].push_back(s);
            init.row({std::to_string(dk), scaled ? "yes" : "no", fmt::format("{:.3f}", s.entropy),
                      fmt::format("{:.3f}", s.largest), fmt::format("{:.4f}", s.jacobian)});
            const auto x = static_cast<double>(dk);
            e.x.push_back(x), e.y.push_back(s.entropy), l.x.push_back(x), l.y.push_back(s.largest), j.x.push_back(x);
            j.y.push_back(std::max(s.jacobian, 1e-12));
        }
        entropy.curves.push_back(e), largest.curves.push_back(l), jacobian.curves.push_back(j);
    }
    init.print();
    // Where uniform weights over the keys would lie: the most spread P can be.
    const auto k = static_cast<double>(keys);
    largest.curves.push_back({fmt::format("uniform, 1/{}", keys), {16, 512}, {1 / k, 1 / k}});
    draw(o, "experiments_scale_init",
         {fmt::format("Attention weights at initialisation, {} keys, q and k ~ N(0, 1)", keys),
          3,
          1300,
          600,
          {entropy, largest, jacobian},
          0.85});

    // Part 2: the copy task with and without the scale.
    const std::vector<std::int64_t> trained = trained_widths(o);
    const int seeds = seeds_or(o, o.quick ? 1 : 3);
    const Seq2SeqRun base = part2_base(o);
    say("\nPart 2: the copy task (V {}, length {}), N = {} layers, one head, d_model = d_k, d_ff = 2 d_model, "
        "{} steps of batch {}, Noam factor {} and warm-up {}, seeds {}..{}\n",
        base.vocab, base.seq_len, base.model.n_layers, base.steps, base.batch, base.lr_factor, base.warmup, base.seed,
        base.seed + static_cast<std::uint64_t>(seeds) - 1);
    Table train({"d_k", "scores", "seed", "mean train loss", "held-out loss", "token accuracy", "exact", "seconds"});
    std::vector<plot::Panel> curves;
    const char* arm_names[] = {"unscaled", "scaled", "additive"};
    std::vector<std::vector<double>> held_out[3];  // [arm][d_k index][seed]
    for (std::int64_t dk : trained) {
        plot::LinePlot panel{fmt::format("d_k = {}", dk),
                             "step",
                             fmt::format("training loss ({}-step mean)", o.quick ? 2 : 10),
                             {},
                             false,
                             true};
        for (Arm arm : {scaled, unscaled, additive}) {
            std::vector<double> losses;  // held out, one per seed
            for (int s = 0; s < seeds; ++s) {
                Seq2SeqRun r = arm_run(base, dk, arm);
                r.seed = base.seed + static_cast<std::uint64_t>(s);
                const Seq2SeqResult res = train_seq2seq(r);
                losses.push_back(res.held_out_loss);
                train.row({std::to_string(dk), arm_names[arm], std::to_string(r.seed),
                           fmt::format("{:.3f}", estimate(res.train_loss).mean),
                           res.diverged ? "diverged" : fmt::format("{:.3f}", res.held_out_loss),
                           fmt::format("{:.1f}%", 100 * res.held_out_token_accuracy),
                           fmt::format("{:.1f}%", 100 * res.held_out_exact), fmt::format("{:.1f}", res.seconds)});
                const std::string name = arm_names[arm];
                plot::Curve curve = window_means(seeds > 1 ? fmt::format("{}, seed {}", name, r.seed) : name, res.steps,
                                                 res.train_loss, o.quick ? 2 : 10);
                curve.colour = arm == scaled     ? 0
                               : arm == unscaled ? 1
                                                 : 2,
                curve.dash = s;  // a colour per arm, a dash per seed
                panel.curves.push_back(curve);
            }
            held_out[arm].push_back(losses);
        }
        curves.push_back(panel);
    }
    train.print();
    say("\n");
    Table summary({"d_k", "held-out loss, scaled", "unscaled", "additive", "unscaled - scaled", "unscaled - additive"});
    for (std::size_t i = 0; i < trained.size(); ++i)
        summary.row({std::to_string(trained[i]), pm(estimate(held_out[scaled][i]), 3),
                     pm(estimate(held_out[unscaled][i]), 3), pm(estimate(held_out[additive][i]), 3),
                     pm(paired_difference(held_out[unscaled][i], held_out[scaled][i]), 3),
                     pm(paired_difference(held_out[unscaled][i], held_out[additive][i]), 3)});
    summary.print();
    say("(mean +- standard error over {} seed{}; the differences paired by seed)\n", seeds, seeds > 1 ? "s" : "");
    draw(o, "experiments_scale_training",
         {"The copy task: scaled, unscaled and additive attention (one head, d_model = d_k)",
          static_cast<int>(std::min<std::size_t>(3, curves.size())), 1200, 420, curves});

    // The verdict: the unscaled weights sharpen with d_k while the scaled ones do not; and in
    // training, at every trained d_k >= 64 (the footnote's "large values of d_k", where Part 1's
    // gradient has fallen), the unscaled model's held-out loss exceeds the scaled one's by more
    // than kMargin nats plus two standard errors of the paired differences, and at no trained
    // d_k is the scaled model worse beyond that margin and the noise; and at the largest
    // trained d_k the additive model's loss is below the unscaled one's by the same test (001).
    const double kMargin = 0.05;
    const Sharpness &s16 = by_scale[1].front(), &s512 = by_scale[1].back(), &u16 = by_scale[0].front(),
                    &u512 = by_scale[0].back();
    const bool sharpens =
        u512.largest > u16.largest + 0.2 && u512.entropy < 0.5 * u16.entropy && u512.jacobian < 0.5 * u16.jacobian;
    const bool scaled_steady = std::abs(s512.entropy - s16.entropy) < 0.1 * s16.entropy;
    bool trains_better = true, any_large = false;
    std::string losses;
    for (std::size_t i = 0; i < trained.size(); ++i) {
        const Estimate d = paired_difference(held_out[unscaled][i], held_out[scaled][i]);
        if (trained[i] >= 64) any_large = true, trains_better = trains_better && exceeds(d, kMargin);
        trains_better = trains_better && !exceeds({-d.mean, d.standard_error, d.n}, kMargin);
        losses += fmt::format("{}d_k {}: {}", i ? ", " : "", trained[i], pm(d, 3));
    }
    trains_better = trains_better && any_large;
    const Estimate d_additive = paired_difference(held_out[unscaled].back(), held_out[additive].back());
    const bool additive_better = trained.back() >= 64 && exceeds(d_additive, kMargin);
    verdict(o, sharpens && scaled_steady && trains_better && additive_better,
            fmt::format("unscaled, P's largest weight goes {:.2f} -> {:.2f} and its softmax gradient {:.3f} -> {:.4f} "
                        "as d_k goes 16 -> 512 (scaled: {:.2f} -> {:.2f}, entropy {:.2f} -> {:.2f}); held-out loss "
                        "unscaled minus scaled, paired over {} seed{} (needed at d_k >= 64: above {} by two standard "
                        "errors), {}; unscaled minus additive at d_k {}: {}",
                        u16.largest, u512.largest, u16.jacobian, u512.jacobian, s16.largest, s512.largest, s16.entropy,
                        s512.entropy, seeds, seeds > 1 ? "s" : "", kMargin,
                        any_large ? losses : losses + " (no d_k >= 64 trained)", trained.back(), pm(d_additive, 3)));
}

}  // namespace

Experiment scale_experiment() {
    return {
        "scale",
        "dividing q.k by sqrt(d_k) keeps P spread and its gradient alive at initialisation, and training "
        "faster, and additive attention beats the unscaled dot product at large d_k (001 and its footnote; 002 \"Why "
        "Use the 1/sqrt(D_K) Scaling?\"; 003)",
        run,
        {"--seeds", "--d-k", "--layers"},
        footprint};
}

}  // namespace run::experiments
