// label-smoothing: 001's full post, "Label Smoothing" (beyond the excerpt; after Szegedy et al.):
// training against the smoothed target q = (1 - eps) one_hot + eps / (V - 2) elsewhere "hurts
// perplexity, as the model learns to be more unsure, but improves accuracy and BLEU score". The
// setting is the post's: translation. The same small Transformer learns King James Version ->
// World English Bible (translation_training.h) with eps 0 and 0.1 (the post's), from 3 seeds;
// both arms of a seed start from the same weights and see the same batches and dropout, so they
// are compared seed by seed (statistics.h). Scored on the validation books: BLEU of greedy
// translations, and the perplexity of the references, exp(nll per token) without smoothing.
//
// The budget is far below a translation model's (translate's own run is about 7 minutes on 2
// idle cores): a 2-layer model of width 64 on 4,000 verses for 6 epochs, 750 steps. Its BLEU is a few points, so the
// experiment tests the claim on a model that has only begun to translate.
#include <cmath>

#include <fmt/format.h>

#include "lectern/run/shell/console.h"
#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/statistics.h"
#include "examples/experiments/translation_training.h"

namespace run::experiments {

namespace {

constexpr double kEpsilon = 0.1;

TranslationRun configure(const Options& o) {
    TranslationRun r;
    if (o.quick)
        r.train_verses = 320, r.vocab = 300, r.context = 48, r.d_model = 32, r.heads = 2, r.d_ff = 64, r.batch = 16,
        r.epochs = 2, r.warmup = 40;
    else r.epochs = 6;
    r.layers = layers_or(o, r.layers);
    return r;
}

void run_label_smoothing(const Options& o) {
    const int seeds = seeds_or(o, o.quick ? 1 : 3);
    const TranslationRun base = configure(o);
    say("reading the SWORD modules engKJV2006eb and engWEB2015eb, learning {} BPE tokens from {} training verses ...\n",
        base.vocab, base.train_verses);
    const TranslationData data = load_translation_data(base);
    say("KJV -> WEB: {} training verses, {} validation (Ruth, Philippians) | N = {} layers, d_model {}, {} heads, "
        "d_ff {}, dropout {} | batch {}, {} epochs, warm-up {} (factor {}) | seeds {}..{}\n",
        data.train.size(), data.validation.size(), base.layers, base.d_model, base.heads, base.d_ff, base.dropout,
        base.batch, base.epochs, base.warmup, base.lr_factor, o.seed, o.seed + static_cast<std::uint64_t>(seeds) - 1);
    std::vector<double> bleu[2], chrf[2], perplexity[2];  // [eps 0, eps 0.1][seed]
    Table per_run({"epsilon", "seed", "validation BLEU", "chrF", "perplexity", "steps", "seconds"});
    for (int arm = 0; arm < 2; ++arm)
        for (int s = 0; s < seeds; ++s) {
            TranslationRun run = base;
            run.smoothing = arm ? kEpsilon : 0.0, run.seed = o.seed + static_cast<std::uint64_t>(s);
            say("training: label smoothing {}, seed {} ...\n", run.smoothing, run.seed);
            const TranslationResult r = train_translation(data, run);
            bleu[arm].push_back(r.bleu), chrf[arm].push_back(r.chrf), perplexity[arm].push_back(r.perplexity);
            per_run.row({fmt::format("{}", run.smoothing), std::to_string(run.seed), fmt::format("{:.2f}", r.bleu),
                         fmt::format("{:.2f}", r.chrf), fmt::format("{:.2f}", r.perplexity), std::to_string(r.steps),
                         fmt::format("{:.1f}", r.seconds)});
        }
    per_run.print();
    say("\n");
    const Estimate d_bleu = paired_difference(bleu[1], bleu[0]), d_chrf = paired_difference(chrf[1], chrf[0]),
                   d_ppl = paired_difference(perplexity[1], perplexity[0]);
    Table summary({"", "eps 0", fmt::format("eps {}", kEpsilon), "change (paired by seed)"});
    summary.row({"validation BLEU", pm(estimate(bleu[0]), 2), pm(estimate(bleu[1]), 2), pm(d_bleu, 2)});
    summary.row({"validation chrF", pm(estimate(chrf[0]), 2), pm(estimate(chrf[1]), 2), pm(d_chrf, 2)});
    summary.row(
        {"validation perplexity", pm(estimate(perplexity[0]), 2), pm(estimate(perplexity[1]), 2), pm(d_ppl, 2)});
    summary.print();
    say("(mean +- standard error over {} seed{})\n", seeds, seeds > 1 ? "s" : "");

    // Each arm's mean, its whisker one standard error each side (none for one seed).
    auto bars = [&](const std::string& title, const std::string& y_label, const std::vector<double>(&arms)[2]) {
        plot::BarChart c{title, "label smoothing", y_label, {"eps 0", fmt::format("eps {}", kEpsilon)}, {}};
        for (const std::vector<double>& arm : arms) {
            const Estimate e = estimate(arm);
            c.values.push_back(e.mean), c.error.push_back(std::isfinite(e.standard_error) ? e.standard_error : 0);
        }
        return c;
    };
    const plot::BarChart b = bars("Validation BLEU (greedy)", "BLEU", bleu),
                         p = bars("Validation perplexity (no smoothing)", "perplexity", perplexity);
    draw(o, "experiments_label_smoothing",
         plot::Figure{fmt::format("Label smoothing on KJV -> WEB translation (001's full post), mean +- s.e. of {} "
                                  "seed{}",
                                  seeds, seeds > 1 ? "s" : ""),
                      2,
                      1000,
                      450,
                      {b, p}});

    // Both halves of the sentence, each beyond two standard errors of the paired changes:
    // perplexity rises and BLEU rises.
    const bool hurts = exceeds(d_ppl), improves = exceeds(d_bleu);
    verdict(o, hurts && improves,
            fmt::format("with eps {} perplexity changes by {} ({}), BLEU by {} points ({}), chrF by {}; paired over {} "
                        "seed{}, beyond noise when above zero by two standard errors",
                        kEpsilon, pm(d_ppl, 2), hurts ? "rises" : "no rise beyond the noise", pm(d_bleu, 2),
                        improves ? "improves" : "no gain beyond the noise", pm(d_chrf, 2), seeds,
                        seeds > 1 ? "s" : ""));
}

}  // namespace

Experiment label_smoothing_experiment() {
    return {"label-smoothing",
            "label smoothing \"hurts perplexity, as the model learns to be more unsure, but improves accuracy and BLEU "
            "score\" (001's full post, \"Label Smoothing\"), on translation",
            run_label_smoothing,
            {"--seeds", "--layers"},
            [](const Options& o) { return Footprint{translation_memory(configure(o))}; }};
}

}  // namespace run::experiments
