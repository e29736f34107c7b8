// relatedness (004 §15.4.6, after eq. 15.53): the entailment model turned to semantic textual
// similarity. The same alignment, comparison and sums, with h ending in one output read as a grade
// from 0 to 5 (models::TextualSimilarity: y_hat = 5 sigmoid(h)), trained by squared error. The claim:
// it learns graded relatedness, which counting shared words does not give: its Pearson correlation
// with the grades of held-out pairs exceeds that of the bag-of-words cosine.
//
// The pairs (lectern/data/relatedness_pairs.h): two sentences of 3..6 concepts out of 24, each
// concept written by either of two synonyms, among 0..3 function words; the grade is 5 times the
// Jaccard index of the two sets of concepts. Two trained arms of TextualSimilarity (E 32, H 64), the
// same seeds and batches: the soft alignment, and no comparison (Alignment::none: h of the two
// sentences' sums of g, a learned bag of words). Beside them the bag-of-words baseline, which
// trains nothing: the cosine of the two sentences' word-count vectors, padding left out (Pearson's r
// does not care that it lies in [0, 1] rather than [0, 5]).
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/statistics.h"
#include "lectern/data/relatedness_pairs.h"
#include "lectern/models/textual_similarity.h"
#include "lectern/nn/loss.h"
#include "lectern/nn/optim/adam.h"
#include "lectern/run/shell/console.h"

namespace run::experiments {

namespace {

using namespace autograd;

// Pearson's r = sum (x - mean x)(y - mean y) / sqrt(sum (x - mean x)^2 sum (y - mean y)^2).
double pearson(const std::vector<double>& x, const std::vector<double>& y) {
    const auto n = static_cast<double>(x.size());
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < x.size(); ++i) mx += x[i] / n, my += y[i] / n;
    double sxy = 0, sxx = 0, syy = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
        sxy += (x[i] - mx) * (y[i] - my), sxx += (x[i] - mx) * (x[i] - mx), syy += (y[i] - my) * (y[i] - my);
    return sxy / std::sqrt(sxx * syy);
}

// The bag-of-words baseline: cos(n_A, n_B) of the sentences' word counts, one per pair.
std::vector<double> bag_of_words_cosine(const data::RelatednessPairsConfig& pairs,
                                        const data::RelatednessBatch& batch) {
    const std::int64_t B = batch.first.size(0), L = batch.first.size(1), V = data::relatedness_vocab(pairs);
    std::vector<double> cosine;
    for (std::int64_t b = 0; b < B; ++b) {
        std::vector<double> count_a(static_cast<std::size_t>(V)), count_b(static_cast<std::size_t>(V));
        for (std::int64_t t = 0; t < L; ++t) {
            count_a[static_cast<std::size_t>(batch.first.data<std::int64_t>()[b * L + t])] += 1;
            count_b[static_cast<std::size_t>(batch.second.data<std::int64_t>()[b * L + t])] += 1;
        }
        double ab = 0, aa = 0, bb = 0;
        for (std::size_t v = 1; v < count_a.size(); ++v)  // from 1: the padding is no word
            ab += count_a[v] * count_b[v], aa += count_a[v] * count_a[v], bb += count_b[v] * count_b[v];
        cosine.push_back(ab / std::sqrt(aa * bb));
    }
    return cosine;
}

struct Budget {
    std::int64_t steps, every, held_out;  // held-out correlation measured every `every` steps
    std::int64_t batch = 64;
    double lr = 1e-3;
};

struct ArmRun {
    double pearson = 0, rmse = 0;   // on the held-out pairs, after the last step
    std::vector<double> curve;      // Pearson's r after every `every` steps
    std::vector<double> predicted;  // the held-out grades it gives, after the last step
};

std::vector<double> predict(const models::TextualSimilarity& model, const data::RelatednessBatch& held_out) {
    NoGradGuard no_grad;
    return model(held_out.first, held_out.second).to_vector();
}

ArmRun train_and_test(models::Alignment alignment, const data::RelatednessPairsConfig& pairs, const Budget& b,
                      const data::RelatednessBatch& held_out, const std::vector<double>& grades, std::uint64_t seed) {
    models::DecomposableAttentionConfig c;
    c.vocab = data::relatedness_vocab(pairs), c.d_embed = 32, c.hidden = 64, c.classes = 1;
    c.pad = data::kRelatednessPad, c.alignment = alignment, c.seed = seed;
    models::TextualSimilarity model(c);
    nn::optim::Adam opt(model.parameters(), {.lr = b.lr});
    Generator gen(seed * 7919);  // the same batches for both arms of a seed
    ArmRun run;
    for (std::int64_t step = 1; step <= b.steps; ++step) {
        const data::RelatednessBatch batch = data::relatedness_batch(pairs, b.batch, gen);
        // the squared error (y_hat - y)^2, averaged over the batch
        Tensor loss = nn::mse_loss(model(batch.first, batch.second), batch.relatedness);
        opt.zero_grad();
        loss.backward();
        opt.step();
        if (step % b.every == 0) run.curve.push_back(pearson(predict(model, held_out), grades));
    }
    run.predicted = predict(model, held_out);
    run.pearson = pearson(run.predicted, grades);
    double squares = 0;
    for (std::size_t i = 0; i < grades.size(); ++i)
        squares += (run.predicted[i] - grades[i]) * (run.predicted[i] - grades[i]);
    run.rmse = std::sqrt(squares / static_cast<double>(grades.size()));
    return run;
}

plot::LinePlot scatter(std::string title, std::string y_label, const std::vector<double>& grades,
                       const std::vector<double>& predicted, std::size_t points) {
    plot::Curve c{"a held-out pair", {}, {}, true};
    for (std::size_t i = 0; i < points && i < grades.size(); ++i) c.x.push_back(grades[i]), c.y.push_back(predicted[i]);
    const plot::Curve perfect{"y = x, every grade right", {0, models::kMaxRelatedness}, {0, models::kMaxRelatedness}};
    return {std::move(title), "the grade y (5 x Jaccard of the concepts)", std::move(y_label), {c, perfect}};
}

void run(const Options& o) {
    const Budget b = o.quick ? Budget{40, 20, 300} : Budget{3000, 250, 2000};
    const int seeds = seeds_or(o, o.quick ? 1 : 3);
    const data::RelatednessPairsConfig pairs;  // K 24 concepts, 6 function words, 3..6 + 0..3 words a sentence
    say("Sentences of {}..{} concepts out of {} (each by either of two synonyms) and 0..{} function words out of "
        "{}; the grade 5 x Jaccard of the concepts | E 32, H 64, y_hat = 5 sigmoid(h) | {} steps of {} fresh pairs, "
        "squared error, Adam lr {} | {} held-out pairs | seeds {}..{}\n",
        pairs.min_content, pairs.max_content, pairs.concepts, pairs.max_function, pairs.function_words, b.steps,
        b.batch, b.lr, b.held_out, o.seed, o.seed + static_cast<std::uint64_t>(seeds) - 1);
    Generator held_out_gen(1000003);
    const data::RelatednessBatch held_out = data::relatedness_batch(pairs, b.held_out, held_out_gen);
    const std::vector<double> grades = held_out.relatedness.to_vector();
    const std::vector<double> cosine = bag_of_words_cosine(pairs, held_out);
    const double cosine_r = pearson(cosine, grades);

    const std::vector<std::pair<models::Alignment, std::string>> arms = {{models::Alignment::soft, "soft alignment"},
                                                                         {models::Alignment::none,
                                                                          "no comparison (learned sums)"}};
    const auto checkpoints = static_cast<std::size_t>(b.steps / b.every);
    std::vector<std::vector<double>> r(arms.size()), rmse(arms.size());
    std::vector<std::vector<std::vector<double>>> curves(arms.size(), std::vector<std::vector<double>>(checkpoints));
    std::vector<double> first_predicted;  // the aligned model's, first seed
    Table table({"arm", "seed", "Pearson r", "RMSE (grade points)"});
    for (int s = 0; s < seeds; ++s)
        for (std::size_t a = 0; a < arms.size(); ++a) {
            const std::uint64_t seed = o.seed + static_cast<std::uint64_t>(s);
            const ArmRun run = train_and_test(arms[a].first, pairs, b, held_out, grades, seed);
            say("  {:<29} seed {}: r = {:.3f}\n", arms[a].second, seed, run.pearson);
            r[a].push_back(run.pearson), rmse[a].push_back(run.rmse);
            for (std::size_t t = 0; t < run.curve.size(); ++t) curves[a][t].push_back(run.curve[t]);
            table.row({arms[a].second, std::to_string(seed), fmt::format("{:.3f}", run.pearson),
                       fmt::format("{:.3f}", run.rmse)});
            if (s == 0 && a == 0) first_predicted = run.predicted;
        }
    say("\n");
    table.print();

    Table summary({"predictor", "Pearson r on held-out pairs", "RMSE (grade points)", "r minus the cosine's (paired)"});
    summary.row({"bag-of-words cosine (no training)", fmt::format("{:.3f}", cosine_r), "-", "-"});
    plot::LinePlot learning{fmt::format("Held-out Pearson r (mean +- s.e., {} seed{})", seeds, seeds > 1 ? "s" : ""),
                            "training pairs seen (thousands)",
                            "Pearson r with the grades",
                            {}};
    Estimate gap;
    for (std::size_t a = 0; a < arms.size(); ++a) {
        const Estimate d = estimate([&] {
            std::vector<double> minus;
            for (double v : r[a]) minus.push_back(v - cosine_r);  // the cosine is the same on every seed
            return minus;
        }());
        if (a == 0) gap = d;
        summary.row({arms[a].second, pm(estimate(r[a]), 3), pm(estimate(rmse[a]), 3), pm(d, 3)});
        plot::Curve c{arms[a].second, {}, {}};
        for (std::size_t t = 0; t < checkpoints; ++t) {
            const Estimate e = estimate(curves[a][t]);
            c.x.push_back(static_cast<double>((static_cast<std::int64_t>(t) + 1) * b.every * b.batch) / 1000);
            c.y.push_back(e.mean);
            c.error.push_back(std::isfinite(e.standard_error) ? e.standard_error : 0);
        }
        learning.curves.push_back(std::move(c));
    }
    plot::Curve flat{"bag-of-words cosine", learning.curves.front().x, {}};
    flat.y.assign(flat.x.size(), cosine_r);
    learning.curves.push_back(flat);
    say("\n");
    summary.print();
    say("(mean +- standard error over {} seed{})\n", seeds, seeds > 1 ? "s" : "");

    std::vector<double> cosine_grade;
    for (double v : cosine) cosine_grade.push_back(models::kMaxRelatedness * v);
    draw(o, "experiments_relatedness",
         {"relatedness: the entailment model with a 0..5 head (004 §15.4.6, after eq. 15.53), beside the "
          "bag-of-words cosine",
          3,
          1500,
          480,
          {scatter(fmt::format("Soft alignment, seed {} (r = {:.3f})", o.seed, r[0].front()), "predicted grade", grades,
                   first_predicted, 600),
           scatter(fmt::format("Bag-of-words cosine (r = {:.3f})", cosine_r), "5 x cosine of the word counts", grades,
                   cosine_grade, 600),
           learning},
          0.9});
    verdict(o, exceeds(gap),
            fmt::format("soft alignment's Pearson r {} against the bag-of-words cosine's {:.3f}: {} above (must exceed "
                        "zero by two standard errors)",
                        pm(estimate(r[0]), 3), cosine_r, pm(gap, 3)));
}

}  // namespace

Experiment relatedness_experiment() {
    return {"relatedness",
            "semantic textual similarity: the entailment model with a 0..5 regression head, trained by squared "
            "error, grades the relatedness of held-out pairs better than the bag-of-words cosine "
            "(004 §15.4.6, after eq. 15.53)",
            run,
            {"--seeds"}};
}

}  // namespace run::experiments
