// length-extrapolation: positional codes beyond the training length (004 §15.5.3: the sinusoid
// "can be computed for arbitrary length inputs (up to T C), unlike a learned mapping from
// integers to vectors"; 000 §15.5.3 note 1).
//
// A learned table has a row for every position up to max_len, but training moves only the rows
// of the positions it shows; the sinusoid, the binary code and the concatenated sinusoid are
// formulas, defined at every position. What does that buy a model trained at one length? The
// experiment trains the copy task's Transformer at length L = 10 with each code (and with none),
// 3 seeds, then decodes held-out sequences of 2L greedily and scores the tokens at positions the
// training showed (t < L) apart from those it never showed (t >= L).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/statistics.h"
#include "examples/experiments/seq2seq_training.h"
#include "lectern/models/greedy_decode.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/run/shell/console.h"

namespace run::experiments {

namespace {

using namespace autograd;

struct Accuracy {
    double seen = 0, unseen = 0;  // token accuracy at target positions t < L and t >= L
};

// Greedy copies of `count` held-out sequences of length `long_len`, scored apart before and from
// the training length L.
Accuracy score_longer(const models::Transformer& model, std::int64_t vocab, std::int64_t L, std::int64_t long_len,
                      std::int64_t count, std::uint64_t seed) {
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    Generator gen(seed + 2000003);
    const data::CopyBatch b = data::sequence_task_batch(data::SequenceTask::copy, vocab, long_len, count, gen);
    const Tensor decoded =
        models::greedy_decode(model, b.src, nn::padding_mask(b.src, data::kCopyPad), long_len, 1).tokens;
    std::int64_t right[2] = {0, 0}, total[2] = {0, 0};
    for (std::int64_t i = 0; i < count; ++i)
        for (std::int64_t t = 1; t < long_len; ++t) {
            const bool unseen = t >= L;
            right[unseen] += decoded.at({i, t}) == b.tgt_out.at({i, t - 1});
            ++total[unseen];
        }
    return {static_cast<double>(right[0]) / static_cast<double>(total[0]),
            static_cast<double>(right[1]) / static_cast<double>(total[1])};
}

std::string percent(const Estimate& m) {
    return fmt::format("{:.1f}% +- {:.1f}", 100 * m.mean, 100 * m.standard_error);
}

constexpr std::int64_t kTrainedLength = 10, kLongLength = 2 * kTrainedLength;

// What every code's run shares: trained at length L = kTrainedLength.
Seq2SeqRun configure(const Options& o) {
    Seq2SeqRun base;
    base.model.n_layers = layers_or(o, 2), base.model.d_model = 32, base.model.d_ff = 64, base.model.heads = 4;
    base.model.dropout = 0.0, base.model.max_len = 2 * kLongLength;
    base.task = data::SequenceTask::copy, base.vocab = 11, base.seq_len = kTrainedLength, base.batch = 32;
    base.steps = o.quick ? 30 : 700, base.warmup = o.quick ? 10 : 150, base.lr_factor = 1.0;
    base.eval_sequences = o.quick ? 20 : 200;
    return base;
}

// The training step, or scoring the held-out sequences at twice the length, whichever holds more.
Footprint footprint(const Options& o) {
    const Seq2SeqRun r = configure(o);
    run::MemoryEstimate train = seq2seq_memory(r),
                        longer = encoder_decoder_memory(r.model, r.vocab, kLongLength, r.eval_sequences);
    train.activations = std::max(train.activations, longer.activations);
    return {train};
}

void run(const Options& o) {
    using nn::Positions;
    const std::vector<Positions> codes = {Positions::sinusoidal, Positions::learned, Positions::binary,
                                          Positions::concatenated, Positions::none};
    const std::int64_t L = kTrainedLength, long_len = kLongLength;
    const int seeds = seeds_or(o, 3);
    const Seq2SeqRun base = configure(o);
    say("The copy task (V {}), trained at length L = {} ({} steps of batch {}, N = {}, d_model 32, 4 heads), tested "
        "at L and at 2L = {} by greedy decoding of {} held-out sequences; seeds {}..{}\n",
        base.vocab, L, base.steps, base.batch, base.model.n_layers, long_len, base.eval_sequences, o.seed,
        o.seed + static_cast<std::uint64_t>(seeds) - 1);
    Table table({"positions", "at L (t < 10)", "at 2L, t < 10", "at 2L, t >= 10 (never trained)", "per seed, t >= 10"});
    plot::BarChart seen_bars{"Sequences of 2L: positions t < L", "positional code", "token accuracy (%)", {}, {}},
        unseen_bars{"Sequences of 2L: positions t >= L, never trained",
                    "positional code",
                    "token accuracy (%)",
                    {},
                    {}};
    std::vector<Estimate> unseen_by_code;
    for (Positions code : codes) {
        std::vector<double> at_l, seen, unseen;
        std::string per_seed;
        for (int s = 0; s < seeds; ++s) {
            Seq2SeqRun r = base;
            r.model.positions = code, r.seed = o.seed + static_cast<std::uint64_t>(s);
            const Seq2SeqResult res = train_seq2seq(r);
            at_l.push_back(res.diverged ? 0.0 : res.held_out_token_accuracy);
            const Accuracy a =
                res.diverged ? Accuracy{} : score_longer(*res.model, r.vocab, L, long_len, r.eval_sequences, r.seed);
            seen.push_back(a.seen), unseen.push_back(a.unseen);
            per_seed += fmt::format("{}{:.1f}", s ? " " : "", 100 * a.unseen);
        }
        const Estimate u = estimate(unseen), sn = estimate(seen);
        unseen_by_code.push_back(u);
        table.row({nn::positions_name(code), percent(estimate(at_l)), percent(sn), percent(u), per_seed});
        seen_bars.categories.push_back(nn::positions_name(code)), seen_bars.values.push_back(100 * sn.mean);
        unseen_bars.categories.push_back(nn::positions_name(code)), unseen_bars.values.push_back(100 * u.mean);
    }
    table.print();
    draw(o, "experiments_length_extrapolation",
         {fmt::format("Trained at L = {}, tested at 2L = {} (004 §15.5.3), mean of {} seeds", L, long_len, seeds),
          2,
          1200,
          480,
          {seen_bars, unseen_bars},
          0.85});

    // The verdict: at the positions no training sequence reached, the sinusoid (a formula)
    // copies better than the learned table (rows training never moved), by more than twice the
    // standard error of the difference.
    const Estimate sinusoid = unseen_by_code[0], learned = unseen_by_code[1];
    const double margin = 2 * std::hypot(sinusoid.standard_error, learned.standard_error);
    std::string rest;
    for (std::size_t c = 2; c < codes.size(); ++c)
        rest += fmt::format("{}{} {}", c > 2 ? ", " : "", nn::positions_name(codes[c]), percent(unseen_by_code[c]));
    verdict(o, sinusoid.mean - learned.mean > margin,
            fmt::format("token accuracy at positions t >= L of sequences of 2L: sinusoidal {} against learned {} "
                        "(needs a difference above {:.1f} points); {}",
                        percent(sinusoid), percent(learned), 100 * margin, rest));
}

}  // namespace

Experiment length_extrapolation_experiment() {
    return {"length-extrapolation",
            "the sinusoid can be computed for inputs of any length, unlike a learned table of positions: trained "
            "at length L, tested at 2L, it copies the positions beyond L better (004 §15.5.3)",
            run,
            {"--seeds", "--layers"},
            footprint};
}

}  // namespace run::experiments
