// positions: what the model knows of order (002 "Attention does not account for
// the order of input"; 004 §15.5.3; 000 §15.5.3 on adding against concatenating).
//
// Self-attention without positions is permutation-equivariant, A(RX) = R A(X),
// so an encoder without them hands the decoder a set of source tokens, and no
// decoder can read a reversal off a set. Each code of 004 §15.5.3 (the sinusoid,
// learned, the binary code, the sinusoid concatenated instead of added) tells the
// model where each token is, and reversal becomes learnable. The experiment trains
// the same Transformer on reversal with each code, and on sorting with none and
// the sinusoid as a control (sorting needs no source order; without positions the
// decoder must still count what it has written), from 3 seeds each, and scores each
// on held-out sequences by greedy decoding. The runs of a seed see the same batches,
// so each code is compared with none seed by seed (statistics.h).
#include <algorithm>
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

struct PositionsRun {
    data::SequenceTask task;
    nn::Positions positions;
    std::vector<Seq2SeqResult> results;  // one per seed
    std::vector<double> accuracy() const {
        std::vector<double> a;
        for (const Seq2SeqResult& r : results) a.push_back(r.held_out_token_accuracy);
        return a;
    }
};

Seq2SeqRun configure(const Options& o, data::SequenceTask task, nn::Positions positions, std::uint64_t seed) {
    Seq2SeqRun run;
    run.model.n_layers = layers_or(o, 2), run.model.d_model = 32, run.model.d_ff = 64, run.model.heads = 4;
    run.model.dropout = 0.0, run.model.positions = positions, run.model.max_len = 16;  // K = 8 when concatenated
    run.task = task, run.vocab = 11, run.seq_len = 10, run.batch = 32;
    run.steps = o.quick ? 30 : 400, run.warmup = o.quick ? 10 : 150, run.lr_factor = 1.0;
    run.seed = seed, run.eval_sequences = o.quick ? 30 : 300;
    return run;
}

std::string percent(double v) { return fmt::format("{:.1f}%", 100 * v); }

// The mean of the last tenth of a training curve: the level a run ended at, not one noisy batch.
double final_level(const std::vector<double>& loss) {
    const std::size_t n = std::max<std::size_t>(1, loss.size() / 10);
    double sum = 0;
    for (std::size_t i = loss.size() - n; i < loss.size(); ++i) sum += loss[i];
    return sum / static_cast<double>(n);
}

plot::Figure figure(const std::vector<PositionsRun>& runs) {
    plot::LinePlot reverse{"Reversing: training loss of the first seed, means of 10 steps",
                           "training step",
                           "loss (nats per token, log scale)",
                           {},
                           false,
                           true};
    plot::LinePlot sort{"Sorting (the control): training loss of the first seed, means of 10 steps",
                        "training step",
                        "loss (nats per token, log scale)",
                        {},
                        false,
                        true};
    plot::BarChart reverse_accuracy{"Reversing: held-out token accuracy, mean over seeds",
                                    "positional code",
                                    "accuracy (%)",
                                    {},
                                    {}};
    plot::BarChart sort_accuracy{"Sorting: held-out token accuracy, mean over seeds",
                                 "positional code",
                                 "accuracy (%)",
                                 {},
                                 {}};
    for (const PositionsRun& r : runs) {
        const bool reversing = r.task == data::SequenceTask::reverse;
        const std::string name = nn::positions_name(r.positions);
        const Seq2SeqResult& first = r.results.front();
        (reversing ? reverse : sort).curves.push_back(window_means(name, first.steps, first.train_loss, 10));
        plot::BarChart& bars = reversing ? reverse_accuracy : sort_accuracy;
        bars.categories.push_back(name);
        bars.values.push_back(100 * estimate(r.accuracy()).mean);
    }
    return plot::Figure{"Positional codes on reversing and sorting (002; 004 §15.5.3)",
                        2,
                        1400,
                        900,
                        {reverse, sort, reverse_accuracy, sort_accuracy},
                        0.8};
}

void run_positions(const Options& o) {
    using data::SequenceTask;
    using nn::Positions;
    const std::vector<std::pair<SequenceTask, Positions>> plan = {{SequenceTask::reverse, Positions::none},
                                                                  {SequenceTask::reverse, Positions::sinusoidal},
                                                                  {SequenceTask::reverse, Positions::learned},
                                                                  {SequenceTask::reverse, Positions::binary},
                                                                  {SequenceTask::reverse, Positions::concatenated},
                                                                  {SequenceTask::sort, Positions::none},
                                                                  {SequenceTask::sort, Positions::sinusoidal}};
    const int seeds = seeds_or(o, o.quick ? 1 : 3);
    std::vector<PositionsRun> runs;
    Table table({"task", "positions", "seed", "final train loss", "held-out loss", "token accuracy", "exact sequences",
                 "seconds"});
    for (auto [task, positions] : plan) {
        runs.push_back({task, positions, {}});
        for (int s = 0; s < seeds; ++s) {
            const Seq2SeqRun run = configure(o, task, positions, o.seed + static_cast<std::uint64_t>(s));
            say("training: {} with {} positions, N = {} layers, {} steps, seed {} ...\n", data::name_of(task),
                nn::positions_name(positions), run.model.n_layers, run.steps, run.seed);
            runs.back().results.push_back(train_seq2seq(run));
            const Seq2SeqResult& r = runs.back().results.back();
            table.row({data::name_of(task), nn::positions_name(positions), std::to_string(run.seed),
                       fmt::format("{:.3f}", final_level(r.train_loss)), fmt::format("{:.3f}", r.held_out_loss),
                       percent(r.held_out_token_accuracy), percent(r.held_out_exact),
                       fmt::format("{:.1f}", r.seconds)});
        }
    }
    table.print();
    say("\n");
    auto accuracy = [&](SequenceTask task, Positions p) {
        for (const PositionsRun& r : runs)
            if (r.task == task && r.positions == p) return r.accuracy();
        return std::vector<double>{};
    };
    const std::vector<double> none = accuracy(SequenceTask::reverse, Positions::none);
    Table summary({"task", "positions", "token accuracy (%)", "minus none's (points, paired by seed)"});
    for (const PositionsRun& r : runs)
        summary.row({data::name_of(r.task), nn::positions_name(r.positions), pm(estimate(r.accuracy()), 1, 100),
                     r.positions == Positions::none
                         ? "-"
                         : pm(paired_difference(r.accuracy(), accuracy(r.task, Positions::none)), 1, 100)});
    summary.print();
    say("(mean +- standard error over {} seed{})\n", seeds, seeds > 1 ? "s" : "");
    draw(o, "experiments_positions", figure(runs));

    // Order is lost without positions (002) and every code restores it: on reversal, each code's
    // token accuracy exceeds none's, seed by seed, by more than 30 points plus two standard errors.
    bool held = true;
    std::string gains;
    for (Positions p : {Positions::sinusoidal, Positions::learned, Positions::binary, Positions::concatenated}) {
        const Estimate d = paired_difference(accuracy(SequenceTask::reverse, p), none);
        held = held && exceeds(d, 0.3);
        gains += fmt::format("{}{} {}", gains.empty() ? "" : ", ", nn::positions_name(p), pm(d, 1, 100));
    }
    verdict(o, held,
            fmt::format("reversing without positions reaches {}% of tokens; each code minus none, in points over {} "
                        "seed{} (needed: above 30 by two standard errors): {}; sorting {}% without positions, {}% with "
                        "the sinusoid",
                        pm(estimate(none), 1, 100), seeds, seeds > 1 ? "s" : "", gains,
                        pm(estimate(accuracy(SequenceTask::sort, Positions::none)), 1, 100),
                        pm(estimate(accuracy(SequenceTask::sort, Positions::sinusoidal)), 1, 100)));
}

}  // namespace

Experiment positions_experiment() {
    return {"positions",
            "without positions self-attention is permutation-equivariant, so order is lost; every code restores it "
            "(002; 004 §15.5.3; 000/004 adding vs concatenating)",
            run_positions,
            {"--seeds", "--layers"},
            // Learned positions add a table of max_len rows; the estimate counts one for every code.
            [](const Options& o) {
                return Footprint{
                    seq2seq_memory(configure(o, data::SequenceTask::copy, nn::Positions::learned, o.seed))};
            }};
}

}  // namespace run::experiments
