// entailment (004 §15.4.6 eq. 15.49-15.53): attention for entailment aligns each word of the
// hypothesis with the words of the premise (alpha_j, eq. 15.50) and each premise word with the
// hypothesis (beta_i), compares the aligned pairs word by word with g, and only then sums. The
// claim: the alignment is what decides entailment where it turns on which word matches which.
//
// The pairs (lectern/data/entailment_pairs.h): a premise of distinct facts, a hypothesis of 1..3
// tokens; a negated premise word contradicts, a word (or negation) the premise lacks is neutral,
// premise words alone are entailed. Short premises (4..8 words of 24) and long ones (8..20 of 32).
// Three arms of models::DecomposableAttention with the same g and h (E 32, H 64): the soft
// alignment; uniform weights (e_ij = 0: each word compared with the mean of the other sentence,
// which dilutes one word's share as the premise grows); and no comparison (each sentence summed on
// its own, then h). Every arm trains from the same seeds on the same batches (fresh pairs at every
// step) and is scored on the same held-out pairs; the soft alignment is compared with each
// ablation seed by seed (statistics.h).
#include <cmath>

#include <fmt/format.h>

#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/statistics.h"
#include "lectern/data/entailment_pairs.h"
#include "lectern/models/decomposable_attention.h"
#include "lectern/nn/optim/adam.h"
#include "lectern/run/shell/console.h"

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
    Score last;                 // after the last step
    std::vector<double> curve;  // held-out accuracy after every `every` steps
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

// The first held-out contradiction with the longest hypothesis and a premise of at least 10 words.
std::int64_t example_pair(const data::EntailmentPairsConfig& pairs, const data::EntailmentBatch& held_out) {
    for (std::int64_t r = 0; r < held_out.labels.numel(); ++r)
        if (static_cast<std::int64_t>(held_out.labels.at({r})) == data::contradicted &&
            static_cast<std::int64_t>(words_of(pairs, held_out.hypothesis, r).size()) == pairs.max_hypothesis &&
            words_of(pairs, held_out.premise, r).size() >= 10)
            return r;
    return 0;
}

struct Setting {
    std::string name;  // "4..8 of 24": premises of 4 to 8 words out of K 24
    data::EntailmentPairsConfig pairs;
};

void run(const Options& o) {
    const Budget b = o.quick ? Budget{40, 20, 300} : Budget{4000, 250, 3000};
    const int seeds = seeds_or(o, o.quick ? 1 : 3);
    // Short premises, then long ones: the longer the premise, the less of it one word is in its mean.
    std::vector<Setting> settings = {{"4..8 of 24", {}}, {"8..20 of 32", {}}};
    settings[0].pairs.words = 24, settings[0].pairs.min_premise = 4, settings[0].pairs.max_premise = 8;
    settings[1].pairs.words = 32, settings[1].pairs.min_premise = 8, settings[1].pairs.max_premise = 20;
    say("Premises of 4..8 facts out of 24, then of 8..20 out of 32; hypotheses of 1..3 tokens (entailment, neutral, "
        "contradiction; chance 33%) | f, g, h of width H 64 over embeddings of E 32 | {} steps of {} fresh pairs, Adam "
        "lr {} | {} held-out pairs | seeds {}..{}\n",
        b.steps, b.batch, b.lr, b.held_out, o.seed, o.seed + static_cast<std::uint64_t>(seeds) - 1);

    const std::vector<std::pair<models::Alignment, std::string>> arms = {{models::Alignment::soft, "soft alignment"},
                                                                         {models::Alignment::uniform,
                                                                          "uniform weights"},
                                                                         {models::Alignment::none, "no comparison"}};
    const auto checkpoints = static_cast<std::size_t>(b.steps / b.every);
    Table table({"premise words", "arm", "seed", "held-out accuracy", "entailment", "neutral", "contradiction"});
    Table summary({"premise words", "arm", "held-out accuracy (%)", "entailment (%)", "neutral (%)",
                   "contradiction (%)", "soft minus this arm (points, paired)"});
    // The learning curves at a quarter, half, three quarters and all of the budget, means over the seeds.
    std::vector<std::size_t> marks;
    for (std::size_t q = 1; q <= 4; ++q)
        if (checkpoints * q / 4 > 0 && (marks.empty() || marks.back() != checkpoints * q / 4 - 1))
            marks.push_back(checkpoints * q / 4 - 1);
    std::vector<std::string> curve_header = {"premise words", "arm"};
    for (std::size_t t : marks)
        curve_header.push_back(
            fmt::format("after {}k pairs (%)", (static_cast<std::int64_t>(t) + 1) * b.every * b.batch / 1000));
    Table curve_table(curve_header);
    std::vector<plot::Panel> curve_panels;
    std::shared_ptr<models::DecomposableAttention> long_attention;  // the first seed's, on long premises
    data::EntailmentBatch long_held_out;
    bool held = true;
    std::string because;
    for (const Setting& setting : settings) {
        Generator held_out_gen(1000003);
        const data::EntailmentBatch held_out = data::entailment_batch(setting.pairs, b.held_out, held_out_gen);
        std::vector<std::vector<double>> accuracy(arms.size());
        std::vector<std::vector<std::vector<double>>> per_label(arms.size(), std::vector<std::vector<double>>(3));
        std::vector<std::vector<std::vector<double>>> curves(arms.size(),
                                                             std::vector<std::vector<double>>(checkpoints));
        for (int s = 0; s < seeds; ++s)
            for (std::size_t a = 0; a < arms.size(); ++a) {
                const std::uint64_t seed = o.seed + static_cast<std::uint64_t>(s);
                ArmRun r = train_and_test(arms[a].first, setting.pairs, b, held_out, seed);
                const Score& last = r.last;
                say("  premises {}, {:<15} seed {}: {:.1f}%\n", setting.name, arms[a].second, seed,
                    100 * last.accuracy);
                accuracy[a].push_back(last.accuracy);
                for (std::size_t k = 0; k < 3; ++k) per_label[a][k].push_back(last.per_label[k]);
                for (std::size_t t = 0; t < r.curve.size(); ++t) curves[a][t].push_back(r.curve[t]);
                table.row({setting.name, arms[a].second, std::to_string(seed),
                           fmt::format("{:.1f}%", 100 * last.accuracy), fmt::format("{:.1f}%", 100 * last.per_label[0]),
                           fmt::format("{:.1f}%", 100 * last.per_label[1]),
                           fmt::format("{:.1f}%", 100 * last.per_label[2])});
                if (s == 0 && a == 0 && &setting == &settings.back())
                    long_attention = r.model, long_held_out = held_out;
            }
        plot::LinePlot learning{fmt::format("Premises of {} words (mean +- s.e. of {} seed{})", setting.name, seeds,
                                            seeds > 1 ? "s" : ""),
                                "training pairs seen (thousands)",
                                "held-out accuracy (%)",
                                {}};
        for (std::size_t a = 0; a < arms.size(); ++a) {
            std::string gap = "-";
            if (a > 0) {  // the claim: the soft alignment beats each ablation by two standard errors, paired by seed
                const Estimate d = paired_difference(accuracy[0], accuracy[a]);
                held = held && exceeds(d);
                gap = pm(d, 1, 100);
                because += fmt::format("{}premises {}: soft minus {} {} points", because.empty() ? "" : "; ",
                                       setting.name, arms[a].second, gap);
            }
            summary.row({setting.name, arms[a].second, pm(estimate(accuracy[a]), 1, 100),
                         pm(estimate(per_label[a][0]), 1, 100), pm(estimate(per_label[a][1]), 1, 100),
                         pm(estimate(per_label[a][2]), 1, 100), gap});
            std::vector<std::string> row = {setting.name, arms[a].second};
            for (std::size_t t : marks) row.push_back(fmt::format("{:.1f}", 100 * estimate(curves[a][t]).mean));
            curve_table.row(row);
            plot::Curve c{arms[a].second, {}, {}};
            for (std::size_t t = 0; t < checkpoints; ++t) {
                const Estimate e = estimate(curves[a][t]);
                c.x.push_back(static_cast<double>((static_cast<std::int64_t>(t) + 1) * b.every * b.batch) / 1000);
                c.y.push_back(100 * e.mean);
                c.error.push_back(std::isfinite(e.standard_error) ? 100 * e.standard_error : 0);
            }
            learning.curves.push_back(std::move(c));
        }
        curve_panels.push_back(std::move(learning));
    }
    say("\n");
    table.print();
    say("\n");
    summary.print();
    say("\nheld-out accuracy while training, mean over the seeds:\n");
    curve_table.print();
    say("(mean +- standard error over {} seed{})\n", seeds, seeds > 1 ? "s" : "");

    const std::int64_t r = example_pair(settings.back().pairs, long_held_out);
    draw(o, "experiments_entailment", alignment_figure(*long_attention, settings.back().pairs, long_held_out, r));
    draw(o, "experiments_entailment_learning",
         {"entailment: held-out accuracy while training, the same g and h with and without the alignment", 2, 1300, 480,
          curve_panels});
    verdict(o, held, because + " (each must exceed zero by two standard errors)");
}

}  // namespace

Experiment entailment_experiment() {
    return {"entailment",
            "attention for entailment: aligning each word of the hypothesis with the premise's words before comparing "
            "them decides entailment better than comparing each word with the other sentence's mean, or comparing "
            "the sentences' sums (004 §15.4.6 eq. 15.49-15.53)",
            run,
            {"--seeds"}};
}

}  // namespace run::experiments
