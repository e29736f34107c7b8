// rnn-attention: the "traditional" encoder-decoder attention against the Transformer (003
// "Traditional attention"; 004 §15.5.1, which points back to §15.4.4). Before the Transformer, a
// decoder RNN attended over an encoder RNN's states (models/rnn_seq2seq.h: GRUs, Bahdanau's
// additive scores); 004 §15.5.1 keeps the attention and drops the recurrence, since in training
// every target token is known in advance and all positions can be computed at once, where an RNN
// must go one step after another. Attention over the source is what both need for copying
// and reversing, so both should learn them; what the recurrence costs is time: the RNN's decoder
// takes its T steps one after another, each a few small products, where the Transformer's layers
// take all T positions in one matrix product each.
//
// Both train at equal parameter counts (the RNN's widths chosen to match the Transformer's count)
// on the copy and the reverse tasks, from the same seeds and so on the same batches, each with its
// own usual recipe, on one thread; each is scored by greedy decoding of held-out sequences. Held if
// both reach 95% of held-out tokens on both tasks and the Transformer's training step takes less
// CPU time than the RNN's on both, by more than two standard errors paired by seed (statistics.h).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/scaling.h"
#include "examples/experiments/seq2seq_training.h"
#include "examples/experiments/statistics.h"
#include "examples/experiments/window_means.h"
#include "lectern/models/greedy_decode.h"
#include "lectern/run/shell/console.h"

namespace run::experiments {

namespace {

using autograd::Tensor;

constexpr std::int64_t kVocab = 11, kSeqLen = 10;
constexpr double kConverged = 0.1;     // nats per token: the training loss that counts as learned
constexpr std::size_t kWindow = 20;    // steps averaged before the loss is compared with it
constexpr double kAccuracyBar = 0.95;  // of held-out tokens, for "learns the task"

// The Transformer of `positions` (N 2, d_model 32, d_ff 64, 4 heads, the sinusoid, no dropout),
// trained as the copy task trains it (warm-up, then the inverse square root).
Seq2SeqRun transformer_run(const Options& o, data::SequenceTask task, std::uint64_t seed) {
    Seq2SeqRun run;
    run.model.n_layers = 2, run.model.d_model = 32, run.model.d_ff = 64, run.model.heads = 4;
    run.model.dropout = 0.0, run.model.max_len = 16;
    run.task = task, run.vocab = kVocab, run.seq_len = kSeqLen, run.batch = 32;
    run.steps = o.quick ? 30 : 1000, run.warmup = o.quick ? 10 : 150, run.lr_factor = 1.0;
    run.seed = seed, run.eval_sequences = o.quick ? 30 : 300;
    return run;
}

// The RNN's widths for the Transformer's count: E = the Transformer's d_model, H the widest hidden
// state whose model with d_a = H stays within the count, then d_a (each unit of which costs
// 2H + 1 parameters) the width that comes nearest to it.
models::RnnSeq2SeqConfig matched_rnn(double target, std::int64_t E) {
    models::RnnSeq2SeqConfig c;
    c.src_vocab = c.tgt_vocab = kVocab, c.d_embed = E;
    auto count = [&](std::int64_t H, std::int64_t A) {
        models::RnnSeq2SeqConfig t = c;
        t.hidden = H, t.d_attention = A;
        return t.parameter_count();
    };
    c.hidden = 1;
    while (count(c.hidden + 1, c.hidden + 1) <= target) ++c.hidden;
    const double per_unit = static_cast<double>(2 * c.hidden + 1);
    c.d_attention = std::max<std::int64_t>(1, std::llround((target - count(c.hidden, 0)) / per_unit));
    return c;
}

RnnSeq2SeqRun rnn_run(const Options& o, data::SequenceTask task, std::uint64_t seed) {
    const Seq2SeqRun t = transformer_run(o, task, seed);
    RnnSeq2SeqRun run;
    run.model = matched_rnn(models::TransformerConfig(t.model).parameter_count(), t.model.d_model);
    run.task = task, run.vocab = t.vocab, run.seq_len = t.seq_len, run.batch = t.batch, run.steps = t.steps;
    run.lr = 3e-3, run.clip = 1.0, run.seed = seed, run.eval_sequences = t.eval_sequences;
    return run;
}

// The first step at which the mean training loss of the kWindow steps ending there is below
// kConverged; NaN if it never is.
double steps_to_converge(const Seq2SeqResult& r) {
    double sum = 0;
    for (std::size_t i = 0; i < r.train_loss.size(); ++i) {
        sum += r.train_loss[i];
        if (i >= kWindow) sum -= r.train_loss[i - kWindow];
        if (i + 1 >= kWindow && sum / static_cast<double>(kWindow) < kConverged) return r.steps[i];
    }
    return std::nan("");
}

double median(std::vector<double> v) {
    if (v.empty()) return std::nan("");
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// One model on one task, over the seeds.
struct Arm {
    std::string model;  // "Transformer" or "RNN + attention"
    data::SequenceTask task;
    std::vector<Seq2SeqResult> results;
    std::vector<double> of(double (*f)(const Seq2SeqResult&)) const {
        std::vector<double> v;
        for (const Seq2SeqResult& r : results) v.push_back(f(r));
        return v;
    }
};

double accuracy_of(const Seq2SeqResult& r) { return r.held_out_token_accuracy; }
double ms_per_step(const Seq2SeqResult& r) { return 1000 * median(r.step_seconds); }
double converge_of(const Seq2SeqResult& r) { return steps_to_converge(r); }

// "120 +- 8", or "never (1 of 3 seeds: 120)" when some seeds did not get there.
std::string converged_cell(const std::vector<double>& steps) {
    std::vector<double> reached;
    for (double s : steps)
        if (std::isfinite(s)) reached.push_back(s);
    if (reached.size() == steps.size()) return pm(estimate(reached), 0);
    if (reached.empty()) return "never";
    return fmt::format("{} of {} seeds: {}", reached.size(), steps.size(), pm(estimate(reached), 0));
}

// The mean of the seeds' training curves, as means of 10 steps.
plot::Curve mean_curve(const Arm& arm) {
    const Seq2SeqResult& first = arm.results.front();
    std::vector<double> loss(first.train_loss.size(), 0.0);
    for (const Seq2SeqResult& r : arm.results)
        for (std::size_t i = 0; i < loss.size() && i < r.train_loss.size(); ++i)
            loss[i] += r.train_loss[i] / static_cast<double>(arm.results.size());
    return window_means(arm.model, first.steps, loss, 10);
}

// alpha_t of the RNN trained on reversal (the first seed) over one held-out sequence: 003's
// "attention weights for machine translation", here an anti-diagonal if it reverses by attending.
plot::HeatMap attention_map(const models::RnnSeq2Seq& rnn, std::uint64_t seed) {
    autograd::Generator gen(seed + 1000003);  // the held-out stream of seq2seq_training.cpp
    data::CopyBatch b = data::sequence_task_batch(data::SequenceTask::reverse, kVocab, kSeqLen, 1, gen);
    Tensor weights;
    models::Decoded d = models::greedy_decode(rnn, b.src, kSeqLen, 1, -1, &weights);
    plot::HeatMap map{"RNN + attention reversing a held-out sequence: alpha_t (first seed)",
                      "source token (encoder state h_j)",
                      "decoded token (step t)",
                      weights.size(1),
                      weights.size(2),
                      weights.to_vector(),
                      {},
                      {},
                      {0, 1, "attention weight alpha_tj"},
                      true,
                      {}};
    for (std::int64_t t = 1; t < d.tokens.size(1); ++t)
        map.row_labels.push_back(fmt::format("{}", d.tokens.at({0, t})));
    for (std::int64_t j = 0; j < b.src.size(1); ++j)
        map.col_labels.push_back(j == 0 ? "<s>" : fmt::format("{}", b.src.at({0, j})));
    return map;
}

void run_rnn_attention(const Options& o) {
    using data::SequenceTask;
    const int seeds = seeds_or(o, o.quick ? 1 : 3);
    const Seq2SeqRun t0 = transformer_run(o, SequenceTask::copy, o.seed);
    const RnnSeq2SeqRun r0 = rnn_run(o, SequenceTask::copy, o.seed);
    const double transformer_params = models::TransformerConfig(t0.model).parameter_count();
    const double rnn_params = r0.model.parameter_count();
    say("Transformer (N 2, d_model 32, d_ff 64, 4 heads): {:.0f} parameters | RNN + attention (E {}, H {}, d_a {}): "
        "{:.0f} parameters ({:+.2f}%) | copy and reverse, V = {}, L = {} | {} steps of batch 32 | seeds {}..{}, one "
        "thread\n",
        transformer_params, r0.model.d_embed, r0.model.hidden, r0.model.d_attention, rnn_params,
        100 * (rnn_params / transformer_params - 1), kVocab, kSeqLen, t0.steps, o.seed,
        o.seed + static_cast<std::uint64_t>(seeds) - 1);
    say("recipes: Transformer Adam (0.9, 0.98, 1e-9) with warm-up {} then 1/sqrt(step); RNN Adam at {} with PyTorch's "
        "defaults, gradients clipped to norm {}\n",
        t0.warmup, r0.lr, r0.clip);

    OneThread one_thread;  // every step's work on this thread, so its CPU time is all of it
    std::vector<Arm> arms;
    Table table({"task", "model", "seed", "final train loss", "token accuracy", "exact sequences",
                 "steps to loss < 0.1", "ms per step"});
    for (SequenceTask task : {SequenceTask::copy, SequenceTask::reverse}) {
        Arm transformer{"Transformer", task, {}}, rnn{"RNN + attention", task, {}};
        for (int s = 0; s < seeds; ++s) {
            const std::uint64_t seed = o.seed + static_cast<std::uint64_t>(s);
            say("training: {} on {}, seed {} ...\n", transformer.model, data::name_of(task), seed);
            transformer.results.push_back(train_seq2seq(transformer_run(o, task, seed)));
            say("training: {} on {}, seed {} ...\n", rnn.model, data::name_of(task), seed);
            rnn.results.push_back(train_rnn_seq2seq(rnn_run(o, task, seed)));
        }
        for (const Arm* arm : {&transformer, &rnn})
            for (int s = 0; s < seeds; ++s) {
                const Seq2SeqResult& r = arm->results[static_cast<std::size_t>(s)];
                const double converged = steps_to_converge(r);
                const std::size_t tail = std::min<std::size_t>(kWindow, r.train_loss.size());
                double final_loss = 0;
                for (std::size_t i = r.train_loss.size() - tail; i < r.train_loss.size(); ++i)
                    final_loss += r.train_loss[i];
                table.row({data::name_of(task), arm->model, std::to_string(o.seed + static_cast<std::uint64_t>(s)),
                           fmt::format("{:.3f}", final_loss / static_cast<double>(std::max<std::size_t>(tail, 1))),
                           fmt::format("{:.1f}%", 100 * r.held_out_token_accuracy),
                           fmt::format("{:.1f}%", 100 * r.held_out_exact),
                           std::isfinite(converged) ? fmt::format("{:.0f}", converged) : "never",
                           fmt::format("{:.3f}", ms_per_step(r))});
            }
        arms.push_back(std::move(transformer));
        arms.push_back(std::move(rnn));
    }
    say("\n");
    table.print();
    say("(final train loss: the mean of the last {} steps; steps to loss < 0.1: the first step whose last {} steps "
        "average below {} nats per token; ms per step: the median step's CPU time)\n\n",
        kWindow, kWindow, kConverged);

    Table summary({"task", "model", "token accuracy (%)", "steps to loss < 0.1", "ms per step",
                   "RNN's time / Transformer's (paired by seed)"});
    std::vector<Estimate> slowdowns;
    bool all_learn = true;
    std::string accuracies, times, convergence;
    for (std::size_t i = 0; i < arms.size(); i += 2) {
        const Arm &transformer = arms[i], &rnn = arms[i + 1];
        std::vector<double> ratios;
        for (std::size_t s = 0; s < transformer.results.size(); ++s)
            ratios.push_back(ms_per_step(rnn.results[s]) / ms_per_step(transformer.results[s]));
        slowdowns.push_back(paired_difference(rnn.of(ms_per_step), transformer.of(ms_per_step)));
        for (const Arm* arm : {&transformer, &rnn}) {
            const Estimate accuracy = estimate(arm->of(accuracy_of));
            all_learn = all_learn && accuracy.mean >= kAccuracyBar;
            summary.row({data::name_of(arm->task), arm->model, pm(accuracy, 1, 100),
                         converged_cell(arm->of(converge_of)), pm(estimate(arm->of(ms_per_step)), 3),
                         arm == &rnn ? pm(estimate(ratios), 2) : "-"});
        }
        accuracies +=
            fmt::format("{}{}: Transformer {}, RNN {}", accuracies.empty() ? "" : "; ", data::name_of(transformer.task),
                        pm(estimate(transformer.of(accuracy_of)), 1, 100), pm(estimate(rnn.of(accuracy_of)), 1, 100));
        convergence += fmt::format("{}{}: Transformer {}, RNN {}", convergence.empty() ? "" : "; ",
                                   data::name_of(transformer.task), converged_cell(transformer.of(converge_of)),
                                   converged_cell(rnn.of(converge_of)));
        times +=
            fmt::format("{}{}: RNN {} ms against the Transformer's {} ms (difference {})", times.empty() ? "" : "; ",
                        data::name_of(transformer.task), pm(estimate(rnn.of(ms_per_step)), 3),
                        pm(estimate(transformer.of(ms_per_step)), 3), pm(slowdowns.back(), 3));
    }
    summary.print();
    say("(mean +- standard error over {} seed{})\n\n", seeds, seeds > 1 ? "s" : "");

    plot::Figure figure{fmt::format("rnn-attention: RNN + additive attention ({:.0f} parameters) against the "
                                    "Transformer ({:.0f}) (003; 004 §15.5.1)",
                                    rnn_params, transformer_params),
                        2,
                        1400,
                        900,
                        {},
                        0.8};
    for (std::size_t i = 0; i < arms.size(); i += 2)
        figure.panels.push_back(plot::LinePlot{fmt::format("{}: training loss, mean of {} seed{}, means of 10 steps",
                                                           data::name_of(arms[i].task), seeds, seeds > 1 ? "s" : ""),
                                               "training step",
                                               "loss (nats per token, log scale)",
                                               {mean_curve(arms[i]), mean_curve(arms[i + 1])},
                                               false,
                                               true});
    figure.panels.push_back(attention_map(*arms[3].results.front().rnn, o.seed));
    plot::BarChart bars{"CPU time of a training step (one thread, median step, mean over seeds)",
                        "task, model",
                        "ms per step",
                        {},
                        {}};
    for (const Arm& arm : arms) {
        bars.categories.push_back(fmt::format("{}, {}", data::name_of(arm.task), arm.model));
        bars.values.push_back(estimate(arm.of(ms_per_step)).mean);
    }
    figure.panels.push_back(bars);
    draw(o, "experiments_rnn_attention", figure);

    const bool faster = exceeds(slowdowns[0]) && exceeds(slowdowns[1]);
    verdict(o, all_learn && faster,
            fmt::format("held-out token accuracy, % (needed: {:.0f} each): {}; {}; CPU time per step: {} (the "
                        "Transformer {} faster on both by two standard errors); steps to a loss below {}: {}",
                        100 * kAccuracyBar, accuracies, all_learn ? "every arm reached it" : "NOT every arm reached it",
                        times, faster ? "is" : "is NOT", kConverged, convergence));
}

}  // namespace

Experiment rnn_attention_experiment() {
    return {"rnn-attention",
            "003; 004 §15.5.1 -> §15.4.4: an RNN decoder attending over its encoder's states (traditional attention) "
            "learns copying and reversing as the Transformer does at equal parameters, but its steps run one after "
            "another, so the Transformer's training step is faster",
            run_rnn_attention,
            {"--seeds"}};
}

}  // namespace run::experiments
