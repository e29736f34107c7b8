// entailment (004 §15.4.6 eq. 15.49-15.53): attention for entailment aligns each word of the
// hypothesis with the words of the premise (alpha_j, eq. 15.50) and each premise word with the
// hypothesis (beta_i), compares the aligned pairs word by word with g, and only then sums. The
// claim: this alignment is what decides entailment where it turns on which word matches which.
//
// The pairs (lectern/data/entailment_pairs.h): a premise of 4..8 distinct facts out of 24, a
// hypothesis of 1..3 tokens; a negated premise word contradicts, a word (or negation) the premise
// lacks is neutral, premise words alone are entailed. Two arms with the same MLPs f, g, h (E 32,
// H 64): models::DecomposableAttention with the soft alignment, and without it
// (Alignment::none: v_A = sum_i g(a_i), v_B = sum_j g(b_j), then h), which must tell from two
// sums whether the words of one sentence are among those of the other. Each arm trains from the
// same seeds on the same batches (fresh pairs at every step) and is scored on the same held-out
// pairs; the arms are compared seed by seed (statistics.h).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/statistics.h"
#include "lectern/data/entailment_pairs.h"
#include "lectern/models/decomposable_attention.h"
#include "lectern/nn/optim/adam.h"
#include "lectern/run/console.h"

namespace run::experiments {

namespace {

using namespace autograd;

struct Budget {
    std::int64_t steps, every, held_out;  // held-out accuracy measured every `every` steps
    std::int64_t batch = 64;
    double lr = 1e-3;
};

struct Score {
    double accuracy = 0;                     // on the held-out pairs
    std::vector<double> per_label{0, 0, 0};  // the fraction right among each label's held-out pairs
};

Score score(const models::DecomposableAttention& model, const data::EntailmentBatch& held_out) {
    NoGradGuard no_grad;
    const Tensor predicted = argmax(model(held_out.premise, held_out.hypothesis), -1);
    std::vector<double> right(3), count(3);
    for (std::int64_t i = 0; i < predicted.numel(); ++i) {
        const std::int64_t y = held_out.labels.data<std::int64_t>()[i];
        const auto k = static_cast<std::size_t>(y);
        count[k] += 1, right[k] += predicted.data<std::int64_t>()[i] == y;
    }
    Score s;
    s.accuracy = (right[0] + right[1] + right[2]) / static_cast<double>(predicted.numel());
    for (std::size_t k = 0; k < 3; ++k) s.per_label[k] = count[k] > 0 ? right[k] / count[k] : 0;
    return s;
}

struct ArmRun {
    Score last;                  // after the last step
    std::vector<double> curve;   // held-out accuracy after every `every` steps
    std::shared_ptr<models::DecomposableAttention> model;
};

ArmRun train_and_test(models::Alignment alignment, const data::EntailmentPairsConfig& pairs, const Budget& b,
                      const data::EntailmentBatch& held_out, std::uint64_t seed) {
    models::DecomposableAttentionConfig c;
    c.vocab = data::entailment_vocab(pairs), c.d_embed = 32, c.hidden = 64, c.alignment = alignment, c.seed = seed;
    c.pad = data::kEntailmentPad;
    ArmRun run;
    run.model = std::make_shared<models::DecomposableAttention>(c);
    models::DecomposableAttention& model = *run.model;
    nn::optim::Adam opt(model.parameters(), {.lr = b.lr});
    Generator gen(seed * 7919);  // the same batches for both arms of a seed
    for (std::int64_t step = 1; step <= b.steps; ++step) {
        const data::EntailmentBatch batch = data::entailment_batch(pairs, b.batch, gen);
        Tensor loss = cross_entropy(model(batch.premise, batch.hypothesis), batch.labels);
        opt.zero_grad();
        loss.backward();
        opt.step();
        if (step % b.every == 0) run.curve.push_back(score(model, held_out).accuracy);
    }
    run.last = score(model, held_out);
    return run;
}

// The tokens of row r of `ids` up to its padding.
std::vector<std::string> words_of(const data::EntailmentPairsConfig& pairs, const Tensor& ids, std::int64_t r) {
    std::vector<std::string> words;
    for (std::int64_t t = 0; t < ids.size(1); ++t) {
        const auto id = static_cast<std::int64_t>(ids.at({r, t}));
        if (id != data::kEntailmentPad) words.push_back(data::entailment_token(pairs, id));
    }
    return words;
}

// Both directions of the soft alignment for held-out pair r: alpha's weights softmax_i(e_ij), a row
// per hypothesis token, and beta's softmax_j(e_ij), a row per premise word.
plot::Figure alignment_figure(const models::DecomposableAttention& model, const data::EntailmentPairsConfig& pairs,
                              const data::EntailmentBatch& held_out, std::int64_t r) {
    NoGradGuard no_grad;
    const Tensor premise = narrow(held_out.premise, 0, r, 1), hypothesis = narrow(held_out.hypothesis, 0, r, 1);
    const std::vector<std::string> a = words_of(pairs, premise, 0), b = words_of(pairs, hypothesis, 0);
    const auto m = static_cast<std::int64_t>(a.size()), n = static_cast<std::int64_t>(b.size());
    models::AlignmentWeights w;
    const Tensor predicted = argmax(model.forward(narrow(premise, 1, 0, m), narrow(hypothesis, 1, 0, n), &w), -1);
    auto panel = [](std::string title, const Tensor& p, std::vector<std::string> rows, std::vector<std::string> cols,
                    std::string x, std::string y, std::string scale) {
        plot::HeatMap h;
        h.title = std::move(title), h.x_label = std::move(x), h.y_label = std::move(y);
        h.rows = p.size(1), h.cols = p.size(2);
        h.values = select(p, 0, 0).to_vector();
        h.row_labels = std::move(rows), h.col_labels = std::move(cols);
        h.scale = {0, 1, std::move(scale), plot::Palette::sequential};
        h.cell_values = true;
        return h;
    };
    const std::string label = data::entailment_label_name(static_cast<std::int64_t>(held_out.labels.at({r})));
    const std::string guess = data::entailment_label_name(static_cast<std::int64_t>(predicted.at({0})));
    return {fmt::format("Soft alignment of a held-out pair ({}; the model says {}), 004 §15.4.6", label, guess),
            2,
            1300,
            560,
            {panel("alpha_j: each hypothesis token over the premise", w.to_premise, b, a, "premise word a_i",
                   "hypothesis token b_j", "softmax_i(e_ij)"),
             panel("beta_i: each premise word over the hypothesis", w.to_hypothesis, a, b, "hypothesis token b_j",
                   "premise word a_i", "softmax_j(e_ij)")}};
}

// The first held-out contradiction with the longest hypothesis and a premise of at least 6 words.
std::int64_t example_pair(const data::EntailmentPairsConfig& pairs, const data::EntailmentBatch& held_out) {
    for (std::int64_t r = 0; r < held_out.labels.numel(); ++r)
        if (held_out.labels.at({r}) == data::contradicted &&
            static_cast<std::int64_t>(words_of(pairs, held_out.hypothesis, r).size()) == pairs.max_hypothesis &&
            words_of(pairs, held_out.premise, r).size() >= 6)
            return r;
    return 0;
}

void run(const Options& o) {
    const Budget b = o.quick ? Budget{40, 20, 300} : Budget{4000, 250, 3000};
    const int seeds = seeds_or(o, o.quick ? 1 : 3);
    const data::EntailmentPairsConfig pairs;  // K 24, premises of 4..8 words, hypotheses of 1..3 tokens
    Generator held_out_gen(1000003);
    const data::EntailmentBatch held_out = data::entailment_batch(pairs, b.held_out, held_out_gen);
    say("Premises of {}..{} facts out of {}, hypotheses of 1..{} tokens (entailment, neutral, contradiction; chance "
        "33%) | f, g, h of width H 64 over embeddings of E 32 | {} steps of {} fresh pairs, Adam lr {} | {} held-out "
        "pairs | seeds {}..{}\n",
        pairs.min_premise, pairs.max_premise, pairs.words, pairs.max_hypothesis, b.steps, b.batch, b.lr, b.held_out,
        o.seed, o.seed + static_cast<std::uint64_t>(seeds) - 1);

    const std::vector<std::pair<models::Alignment, std::string>> arms = {{models::Alignment::soft, "soft alignment"},
                                                                         {models::Alignment::none, "no alignment"}};
    std::vector<std::vector<double>> accuracy(arms.size());
    std::vector<std::vector<std::vector<double>>> per_label(arms.size(), std::vector<std::vector<double>>(3));
    const auto checkpoints = static_cast<std::size_t>(b.steps / b.every);
    std::vector<std::vector<std::vector<double>>> curves(arms.size(), std::vector<std::vector<double>>(checkpoints));
    std::shared_ptr<models::DecomposableAttention> first_attention;
    Table table({"arm", "seed", "held-out accuracy", "entailment", "neutral", "contradiction"});
    for (int s = 0; s < seeds; ++s)
        for (std::size_t a = 0; a < arms.size(); ++a) {
            const std::uint64_t seed = o.seed + static_cast<std::uint64_t>(s);
            ArmRun r = train_and_test(arms[a].first, pairs, b, held_out, seed);
            const Score& last = r.last;
            say("  {:<14} seed {}: {:.1f}%\n", arms[a].second, seed, 100 * last.accuracy);
            accuracy[a].push_back(last.accuracy);
            for (std::size_t k = 0; k < 3; ++k) per_label[a][k].push_back(last.per_label[k]);
            for (std::size_t t = 0; t < r.curve.size(); ++t) curves[a][t].push_back(r.curve[t]);
            table.row({arms[a].second, std::to_string(seed), fmt::format("{:.1f}%", 100 * last.accuracy),
                       fmt::format("{:.1f}%", 100 * last.per_label[0]), fmt::format("{:.1f}%", 100 * last.per_label[1]),
                       fmt::format("{:.1f}%", 100 * last.per_label[2])});
            if (s == 0 && a == 0) first_attention = r.model;
        }
    say("\n");
    table.print();
    say("\n");
    Table summary({"arm", "held-out accuracy (%)", "entailment (%)", "neutral (%)", "contradiction (%)"});
    for (std::size_t a = 0; a < arms.size(); ++a)
        summary.row({arms[a].second, pm(estimate(accuracy[a]), 1, 100), pm(estimate(per_label[a][0]), 1, 100),
                     pm(estimate(per_label[a][1]), 1, 100), pm(estimate(per_label[a][2]), 1, 100)});
    summary.print();
    const Estimate gap = paired_difference(accuracy[0], accuracy[1]);
    say("soft alignment minus no alignment, paired by seed: {} points\n", pm(gap, 1, 100));
    say("(mean +- standard error over {} seed{})\n", seeds, seeds > 1 ? "s" : "");

    const std::int64_t r = example_pair(pairs, held_out);
    plot::Figure figure = alignment_figure(*first_attention, pairs, held_out, r);
    plot::LinePlot learning{fmt::format("Held-out accuracy while training (mean +- standard error of {} seed{})", seeds,
                                        seeds > 1 ? "s" : ""),
                            "training pairs seen (thousands)", "held-out accuracy (%)", {}};
    for (std::size_t a = 0; a < arms.size(); ++a) {
        plot::Curve c{arms[a].second, {}, {}};
        for (std::size_t t = 0; t < checkpoints; ++t) {
            const Estimate e = estimate(curves[a][t]);
            c.x.push_back(static_cast<double>((static_cast<std::int64_t>(t) + 1) * b.every * b.batch) / 1000);
            c.y.push_back(100 * e.mean);
            c.error.push_back(std::isfinite(e.standard_error) ? 100 * e.standard_error : 0);
        }
        learning.curves.push_back(std::move(c));
    }
    draw(o, "experiments_entailment", figure);
    draw(o, "experiments_entailment_learning",
         {"entailment: the same MLPs with and without the soft alignment (004 §15.4.6)", 1, 800, 480, {learning}});

    // The claim: the alignment beats the same MLPs without it by more than two standard errors
    // of the paired difference.
    verdict(o, exceeds(gap),
            fmt::format("held-out accuracy (%) with the soft alignment {}, without it {}; the difference paired "
                        "over {} seed{} {} points ({} zero by two standard errors)",
                        pm(estimate(accuracy[0]), 1, 100), pm(estimate(accuracy[1]), 1, 100), seeds,
                        seeds > 1 ? "s" : "", pm(gap, 1, 100), exceeds(gap) ? "above" : "NOT above"));
}

}  // namespace

Experiment entailment_experiment() {
    return {"entailment",
            "attention for entailment: aligning each word of the hypothesis with the premise's words before comparing "
            "them decides entailment that the same MLPs on the two sentences' sums cannot (004 §15.4.6 eq. 15.49-15.53)",
            run,
            {"--seeds"}};
}

}  // namespace run::experiments
