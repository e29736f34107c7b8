// norm: pre-norm against post-norm in a deeper Transformer (003 "Encoder layer": "with pre-norm
// transformer training is more stable"; 001's SublayerConnection is pre-norm, the paper's text post-norm).
//
// N = 6 encoder and decoder layers on the copy task, each placement of the LayerNorm with and
// without the learning-rate warm-up, three seeds each (the runs of a seed see the same batches,
// so the placements are compared seed by seed). With warm-up the rate follows 001's Noam
// schedule, lr = f d^-0.5 min(s^-0.5, s w^-1.5); without it, the rate is that schedule's peak,
// f d^-0.5 w^-0.5, from the first step on. A run that fails to learn is one whose loss over its
// last tenth of steps is above half the loss of guessing, ln(V - 1) / 2; a diverged run is one
// whose loss or gradient stopped being finite (its final loss counts as guessing's).
//
// 003 names no schedule, so its claim is tested under both: held only if under each, pre-norm
// fails in fewer runs than post-norm and ends lower, paired by seed, by more than two standard
// errors (statistics.h).
#include <cmath>

#include <fmt/format.h>

#include "lectern/run/shell/console.h"
#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/seq2seq_training.h"
#include "examples/experiments/statistics.h"
#include "examples/experiments/window_means.h"

namespace run::experiments {

namespace {

double tail_mean(const std::vector<double>& v) {
    if (v.empty()) return std::nan("");
    const std::size_t from = v.size() - std::max<std::size_t>(1, v.size() / 10);
    double s = 0;
    for (std::size_t i = from; i < v.size(); ++i) s += v[i];
    return s / static_cast<double>(v.size() - from);
}

struct Arm {
    nn::Norm norm;
    bool warmup;
    std::string name() const {
        return fmt::format("{}, {}", norm == nn::Norm::pre ? "pre-norm" : "post-norm",
                           warmup ? "warm-up" : "no warm-up");
    }
};

// What every arm shares; the arms differ in where the norm sits and the warm-up, not in size.
Seq2SeqRun configure(const Options& o) {
    Seq2SeqRun base;
    base.model.n_layers = layers_or(o, o.quick ? 2 : 6), base.model.d_model = 64, base.model.heads = 4,
    base.model.d_ff = 128;
    base.model.dropout = 0.0;
    base.steps = o.quick ? 10 : 300, base.batch = 32, base.seq_len = 10, base.eval_sequences = o.quick ? 20 : 200;
    return base;
}

void run(const Options& o) {
    const int seeds = seeds_or(o, o.quick ? 1 : 3);
    const Seq2SeqRun base = configure(o);
    const std::int64_t warmup = o.quick ? 4 : 100;
    const double factor = 1.0;
    const double peak =
        factor / std::sqrt(static_cast<double>(base.model.d_model)) / std::sqrt(static_cast<double>(warmup));
    const double guessing = std::log(static_cast<double>(base.vocab - 1));
    say("The copy task (V {}, length {}), N = {} layers, d_model {}, {} heads, d_ff {}, {} steps of batch {}; "
        "warm-up: Noam factor {} over {} steps (peak rate {:.4f}); no warm-up: {:.4f} throughout; seeds {}..{}\n",
        base.vocab, base.seq_len, base.model.n_layers, base.model.d_model, base.model.heads, base.model.d_ff,
        base.steps, base.batch, factor, warmup, peak, peak, o.seed, o.seed + static_cast<std::uint64_t>(seeds) - 1);
    Table table({"placement", "schedule", "seed", "final train loss", "held-out loss", "exact", "outcome"});
    const std::vector<Arm> arms = {{nn::Norm::post, true},
                                   {nn::Norm::post, false},
                                   {nn::Norm::pre, true},
                                   {nn::Norm::pre, false}};
    plot::LinePlot with{"with warm-up", "step", fmt::format("training loss ({}-step mean)", o.quick ? 2 : 10), {},
                        false,          true},
        without{"without warm-up (the peak rate from step 1)",
                "step",
                fmt::format("training loss ({}-step mean)", o.quick ? 2 : 10),
                {},
                false,
                true};
    struct Tally {
        int failed = 0, diverged = 0;
        std::vector<double> final_loss;  // per seed; a diverged run's is the loss of guessing
    };
    std::vector<Tally> tally(arms.size());
    for (std::size_t a = 0; a < arms.size(); ++a) {
        for (int s = 0; s < seeds; ++s) {
            Seq2SeqRun r = base;
            r.model.norm = arms[a].norm;
            r.seed = o.seed + static_cast<std::uint64_t>(s);
            r.warmup = arms[a].warmup ? warmup : 0;
            r.lr_factor = arms[a].warmup ? factor : peak;
            const Seq2SeqResult res = train_seq2seq(r);
            const double last = tail_mean(res.train_loss);
            const bool failed = res.diverged || !(last < guessing / 2);
            Tally& t = tally[a];
            t.failed += failed, t.diverged += res.diverged;
            t.final_loss.push_back(res.diverged ? guessing : last);
            table.row({arms[a].norm == nn::Norm::pre ? "pre-norm" : "post-norm", arms[a].warmup ? "warm-up" : "none",
                       std::to_string(r.seed), fmt::format("{:.3f}", last),
                       res.diverged ? "-" : fmt::format("{:.3f}", res.held_out_loss),
                       res.diverged ? "-" : fmt::format("{:.0f}%", 100 * res.held_out_exact),
                       res.diverged ? fmt::format("diverged at step {}", res.steps.size() + 1)
                                    : (failed ? "did not learn" : "learned")});
            if (!res.train_loss.empty()) {
                plot::Curve curve =
                    window_means(fmt::format("{}, seed {}", arms[a].norm == nn::Norm::pre ? "pre" : "post", r.seed),
                                 res.steps, res.train_loss, o.quick ? 2 : 10);
                curve.colour = arms[a].norm == nn::Norm::pre ? 0 : 1,
                curve.dash = s;  // a colour per placement, a dash per seed
                (arms[a].warmup ? with : without).curves.push_back(curve);
            }
        }
    }
    table.print();
    say("\n");
    Table summary({"placement, schedule", "failed (of seeds)", "diverged", "final training loss"});
    for (std::size_t a = 0; a < arms.size(); ++a)
        summary.row({arms[a].name(), fmt::format("{} of {}", tally[a].failed, seeds), std::to_string(tally[a].diverged),
                     pm(estimate(tally[a].final_loss), 3)});
    summary.print();
    say("(final loss: mean +- standard error over {} seed{}; a diverged run counts as guessing, ln {} = {:.3f})\n",
        seeds, seeds > 1 ? "s" : "", base.vocab - 1, guessing);
    draw(o, "experiments_norm",
         {fmt::format("Post-norm against pre-norm, N = {} layers, with and without warm-up", base.model.n_layers),
          2,
          1200,
          480,
          {with, without}});

    // 003's claim under each schedule: pre-norm fails in fewer runs, and its final loss is lower
    // than post-norm's, seed by seed, by more than two standard errors of the differences.
    const Tally &post_w = tally[0], &post_n = tally[1], &pre_w = tally[2], &pre_n = tally[3];
    const Estimate gain_w = paired_difference(post_w.final_loss, pre_w.final_loss),
                   gain_n = paired_difference(post_n.final_loss, pre_n.final_loss);
    const bool with_warmup = pre_w.failed < post_w.failed && exceeds(gain_w),
               without_warmup = pre_n.failed < post_n.failed && exceeds(gain_n);
    verdict(
        o, with_warmup && without_warmup,
        fmt::format("runs that failed to learn, of {} per arm: with warm-up post-norm {}, pre-norm {}; without "
                    "warm-up post-norm {}, pre-norm {}; final loss post-norm minus pre-norm, paired by seed: {} with "
                    "warm-up, {} without; more stable with warm-up: {}, without: {}",
                    seeds, post_w.failed, pre_w.failed, post_n.failed, pre_n.failed, pm(gain_w, 3), pm(gain_n, 3),
                    with_warmup ? "yes" : "no", without_warmup ? "yes" : "no"));
}

}  // namespace

Experiment norm_experiment() {
    return {"norm",
            "with pre-norm, Transformer training is more stable than with post-norm (003 \"Encoder layer\")",
            run,
            {"--seeds", "--layers"},
            [](const Options& o) { return Footprint{seq2seq_memory(configure(o))}; }};
}

}  // namespace run::experiments
