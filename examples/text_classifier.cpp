// An encoder-only Transformer classifies real text (002 "Sentiment
// classification", "Output transformations"): which file of Debian's `fortunes`
// package a fortune comes from. It is scored on a held-out test set with as
// many fortunes of every category, beside two baselines it trains itself: the
// majority class and a bag-of-words logistic regression (Lectern's autograd).
// Both trained models are taken at the step that scores best on a validation
// set drawn from the training fortunes; the test fortunes choose nothing.
//   ./build/examples/text_classifier                      the default run (about 1.5 minutes on 2 cores)
//   ./build/examples/text_classifier --pooling mean       the mean of the tokens instead of [CLASS]
//   ./build/examples/text_classifier --tokens bpe         byte-level BPE subwords instead of words
//   ./build/examples/text_classifier --figures figures    the confusion matrix and the loss curve
//   ./build/examples/text_classifier --save tc.ckpt       keep the run; --resume tc.ckpt continues it,
//                                                         --load tc.ckpt scores it on the test fortunes again
//   mpirun -np 2 ./build/examples/text_classifier         each process computes half of every batch
//   ./build/examples/text_classifier --help               every flag
//
// A run is up to three trainings, one run::TrainingLoop each: the bag of
// words, the optional pre-training, the transformer. Its checkpoint holds the
// modules of all three, the training it was saved in ("phase") and what the
// finished ones chose; a resumed run skips the finished trainings, takes their
// results from the checkpoint and carries on in the one it was saved in. The
// tokenizer is not saved: it is learnt again from the fortunes, which must be
// those the run read (their digest is recorded and checked).
#include <algorithm>
#include <filesystem>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "lectern/autograd/autograd.h"
#include "lectern/data/balanced_sampler.h"
#include "lectern/data/fortunes.h"
#include "lectern/data/fortune_categories.h"
#include "lectern/data/labelled_fortunes.h"
#include "lectern/data/masked_tokens.h"
#include "lectern/data/token_batches.h"
#include "lectern/data/word_tokens.h"
#include "lectern/models/masked_language_model.h"
#include "lectern/models/text_classifier.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/lr_schedule.h"
#include "lectern/nn/optim/adamw.h"
#include "lectern/nn/optim/param_groups.h"
#include "lectern/run/flags/adamw_flags.h"
#include "lectern/run/training/best_parameters.h"
#include "lectern/run/training/classification_tally.h"
#include "lectern/run/shell/console.h"
#include "lectern/run/shell/data_parallel_run.h"
#include "lectern/run/figures/figure_files.h"
#include "lectern/run/flags/flags.h"
#include "lectern/run/training/text_tokenizer.h"
#include "lectern/run/shell/timed.h"
#include "lectern/run/figures/loss_curve_figure.h"
#include "lectern/run/shell/memory_budget.h"
#include "lectern/run/flags/model_flags.h"
#include "lectern/run/shell/output_files.h"
#include "lectern/run/shell/program.h"
#include "lectern/run/training/training_loop.h"
#include "lectern/run/training/training_phases.h"
#include "lectern/run/figures/vit_figures.h"

using namespace autograd;

namespace {

struct Options {
    std::string fortunes = "/usr/share/games/fortunes";
    std::string categories = "computers,science,politics,art,startrek,food,law";
    std::int64_t test_per_class = 40;
    std::int64_t val_per_class = 20, eval_every = 50;
    std::string tokens = "words";  // or "bpe": byte-level BPE subwords; or "chars": the UTF-8 bytes
    std::int64_t bpe_vocab = 2000, word_min_count = 2, max_len = 128;
    std::string pooling = "cls";
    run::ModelFlags model{.layers = 2, .d_model = 128, .heads = 4, .d_ff = 512, .dropout = 0.2};
    double token_drop = 0.1;
    std::int64_t steps = 1500, batch = 32, warmup = 100;
    std::int64_t pretrain_steps = 0;
    double mask_prob = 0.15;
    run::AdamWFlags adamw{.lr = 1e-3, .weight_decay = 0.1, .clip = 1.0};  // the transformer's
    std::int64_t bow_steps = 1500, bow_min_count = 2;
    double bow_lr = 0.02, bow_weight_decay = 0.01;
    std::uint64_t seed = 1;
    std::string figures;
};

// The preset quick, the test suite's short run: every step of the real one, on less.
void apply_preset(Options& o, const std::string& preset) {
    if (preset != "quick") return;
    o.test_per_class = 20, o.val_per_class = 10, o.eval_every = 10, o.bpe_vocab = 300, o.max_len = 48;
    o.model.d_model = 32, o.model.d_ff = 64, o.model.layers = 1;
    o.steps = 40, o.bow_steps = 40, o.warmup = 10;
}

// ---- the run's trainings

// Every module of the run, in its one checkpoint: the bag of words' logistic
// regression, the transformer and, with pre-training, the masked language
// model's head (its encoder is the transformer's own).
struct RunModules : nn::Module {
    RunModules(std::int64_t words, const models::TextClassifierConfig& mc, const Options& o) {
        Generator bow_gen(o.seed);
        bag_of_words = register_module("bag_of_words", std::make_shared<nn::Linear>(words, mc.classes, true, bow_gen));
        classifier = register_module("classifier", std::make_shared<models::TextClassifier>(mc));
        if (o.pretrain_steps > 0)
            masked_lm =
                register_module("masked_lm", std::make_shared<models::MaskedLanguageModel>(classifier, o.seed + 4));
    }
    std::shared_ptr<nn::Linear> bag_of_words;  // logits = x W^T + b on unit-length word-presence vectors x
    std::shared_ptr<models::TextClassifier> classifier;
    std::shared_ptr<models::MaskedLanguageModel> masked_lm;  // null without pre-training
};

// The trainings in the order they run, each resumed, skipped or started as the checkpoint's phase says.
const run::TrainingPhases kPhases({"bag_of_words", "pretraining", "transformer"}, "text_classifier");

// The loss of rows [first, last) of a batch, this process's share. What else
// the batch draws (tokens left out or masked) is drawn for all of its rows, so
// that the generators stay the same in every process.
using ShareLoss =
    std::function<run::StepLoss(const std::vector<std::size_t>& batch, std::int64_t first, std::int64_t last)>;

// One training of the run (run::TrainingLoop): AdamW on `trained` under linear
// warmup and cosine decay, its gradients clipped, on batches balanced by class
// (data::BalancedSampler). With `validate`, the model is scored on the
// validation fortunes every --eval-every steps and after the last, and ends
// at the parameters of its best score, the highest accuracy, then the lowest
// loss (run::BestParameters), so the held-out test fortunes choose nothing.
struct Training {
    std::string phase, done;  // its name in the checkpoint; what the run says of it when finished
    nn::Module& trained;
    std::int64_t steps;
    double lr, weight_decay;
    std::uint64_t seed;  // of the batches
    const std::vector<std::int64_t>& labels;
    std::int64_t classes;
    ShareLoss loss = {};
    std::vector<std::pair<std::string, Generator*>> generators = {};  // what else a step draws from
    std::function<run::ClassificationTally()> validate = {};          // on the validation fortunes
};

// Rows [first, last) of a batch's tensor, or the tensor when that is all of it.
Tensor rows_of(const Tensor& t, std::int64_t first, std::int64_t last) {
    return first == 0 && last == t.size(0) ? t : narrow(t, 0, first, last - first);
}

struct Trained {
    run::BestStep best;
    run::Curve loss, lr, validation;
};

// `carried`: the run record of the checkpoints, with what the finished trainings chose.
Trained train(const Options& o, run::Run& r, const Training& t, RunModules& all, const nn::RunRecord& carried,
              run::PhaseStart start) {
    nn::optim::AdamW opt(nn::optim::weight_decay_groups(t.trained, t.weight_decay), {.lr = t.lr});
    nn::WarmupCosineSchedule schedule(t.lr, std::min(o.warmup, t.steps - 1), t.steps, t.lr / 100);
    data::BalancedSampler sampler(t.labels, t.classes, t.seed);
    run::CheckpointFlags checkpoint = r.checkpoint;
    if (start != run::PhaseStart::resume) checkpoint.resume.clear();
    run::TrainingLoop loop(t.trained, opt,
                           {.steps = t.steps,
                            .epoch_steps = t.validate ? o.eval_every : t.steps,
                            .unit = "text",
                            .lr = [&](std::int64_t step) { return schedule.lr(step); },
                            .clip = o.adamw.clip,
                            .epoch_lines = false},
                           checkpoint, carried,
                           start == run::PhaseStart::resume ? r.take_checkpoint()
                                                            : std::shared_ptr<const nn::CheckpointFile>());
    loop.checkpoint_holds(all);
    loop.keep_text(run::TrainingPhases::kRecordName, t.phase);
    loop.keep("batches", sampler.generator());
    for (const auto& [name, gen] : t.generators) loop.keep(name, *gen);
    std::optional<run::BestParameters> best;
    if (t.validate) {
        best.emplace(loop, t.trained, t.phase);
        loop.evaluate = [&](std::int64_t, std::int64_t step) {
            const run::ClassificationTally v = [&] {
                nn::EvalGuard eval(t.trained);
                return t.validate();
            }();
            loop.curve("validation").emplace_back(static_cast<double>(step), v.loss());
            best->offer(step, {v.accuracy(), -v.loss()});
        };
        loop.bar_note = [&] {
            const run::BestStep& b = best->best();
            return b.step ? fmt::format("best validation {:.1f}% (step {})", 100 * b.score[0], b.step) : std::string();
        };
    }
    const auto [first, last] = loop.share(o.batch);
    loop.run([&](std::int64_t) { return t.loss(sampler.batch(o.batch), first, last); });
    return {best ? best->best() : run::BestStep{}, loop.curve("loss"), loop.curve("lr"), loop.curve("validation")};
}

// What the trainings and the scores read: the fortunes as ids and as bags of words.
struct Sets {
    data::TokenizedTexts train, validation, test;
    data::TokenizedTexts corpus;  // pre-training's unlabelled fortunes
    data::SplitBags bow;
    std::int64_t mask_id;  // pre-training's [MASK]
};

// The two models on a set: the bag of words' logits, the transformer's.
run::ClassificationTally bow_tally(RunModules& m, const Sets& s, const data::TokenizedTexts& set,
                                   const std::vector<std::vector<std::int64_t>>& bags) {
    return run::tally_rows(bags.size(), m.classifier->config.classes, set.labels, [&](const auto& rows) {
        return (*m.bag_of_words)(data::bag_of_words_batch(bags, rows, s.bow.words));
    });
}

run::ClassificationTally transformer_tally(RunModules& m, const data::TokenizedTexts& set) {
    return run::tally_rows(set.ids.size(), m.classifier->config.classes, set.labels,
                           [&](const auto& rows) { return m.classifier->forward(data::token_batch(set, rows).first); });
}

// The step losses on rows [first, last) of a batch (ShareLoss). The bag of
// words': the cross-entropy of logits = x W^T + b.
run::StepLoss bow_loss(RunModules& m, const Sets& s, const std::vector<std::size_t>& batch, std::int64_t first,
                       std::int64_t last) {
    const std::vector<std::size_t> rows(batch.begin() + first, batch.begin() + last);
    std::vector<double> y;
    for (auto r : rows) y.push_back(static_cast<double>(s.train.labels[r]));
    Tensor logits = (*m.bag_of_words)(data::bag_of_words_batch(s.bow.train, rows, s.bow.words));
    return {cross_entropy(logits, tensor(y, Dtype::int64)), last - first, static_cast<std::int64_t>(batch.size())};
}

// Pre-training's: the masked language model's cross-entropy on the chosen tokens.
run::StepLoss masked_lm_loss(RunModules& m, const Sets& s, double mask_prob, Generator& masks,
                             const std::vector<std::size_t>& batch, std::int64_t first, std::int64_t last) {
    auto [x, target] = data::masked_token_batch(s.corpus, batch, mask_prob, s.mask_id, masks);
    auto [loss, chosen] = m.masked_lm->loss(rows_of(x, first, last), rows_of(target, first, last));
    return {loss, chosen, static_cast<std::int64_t>(batch.size())};
}

// The transformer's: the cross-entropy of its logits on the fortunes, tokens left out.
run::StepLoss transformer_loss(RunModules& m, const Sets& s, double token_drop, Generator& drops,
                               const std::vector<std::size_t>& batch, std::int64_t first, std::int64_t last) {
    auto [x, y] = data::token_batch(s.train, batch, token_drop, &drops);
    return {cross_entropy(m.classifier->forward(rows_of(x, first, last)), rows_of(y, first, last)), last - first,
            static_cast<std::int64_t>(batch.size())};
}

// One training in its turn: started, resumed, or taken as the checkpoint
// finished it (`reached`: the phase it was saved in). What it chose joins
// `carried`, the run record the later trainings' checkpoints hold.
Trained train_in_turn(const Options& o, run::Run& r, const Training& t, RunModules& m, nn::RunRecord& carried,
                      const std::string& reached) {
    const std::string& path = r.checkpoint.resume;
    Trained done;
    if (const run::PhaseStart start = kPhases.start_of(t.phase, reached); start == run::PhaseStart::finished) {
        if (t.validate) done.best = run::recorded_best(r.saved(), t.phase, path);
        run::say("{} before {} was saved{}\n", t.done, path,
                 t.validate ? fmt::format(": step {} of {} chosen", done.best.step, done.best.steps) : "");
    } else {
        run::timed(t.done.c_str(), [&] { done = train(o, r, t, m, carried, start); });
    }
    if (t.validate) run::record_best(carried, t.phase, done.best);
    return done;
}

// Trains the run's models in turn. Returns what the bag of words and the transformer chose.
std::pair<run::BestStep, Trained> train_run(const Options& o, run::Run& r, RunModules& m, const Sets& s,
                                            nn::RunRecord carried) {
    const std::string reached = r.checkpoint.resume.empty() ? "" : kPhases.saved_in(r.saved(), r.checkpoint.resume);
    const auto K = static_cast<std::int64_t>(m.classifier->config.classes);

    run::say(
        "\nbag of words: {} words held by at least {} training fortunes; logistic regression, AdamW lr {} "
        "wd {}, {} steps\n",
        s.bow.words, o.bow_min_count, o.bow_lr, o.bow_weight_decay, o.bow_steps);
    Training bow{"bag_of_words", "trained", *m.bag_of_words, o.bow_steps, o.bow_lr, o.bow_weight_decay, o.seed + 1,
                 s.train.labels, K};
    bow.loss = [&](const auto& batch, std::int64_t first, std::int64_t last) {
        return bow_loss(m, s, batch, first, last);
    };
    bow.validate = [&] { return bow_tally(m, s, s.validation, s.bow.validation); };
    const run::BestStep bow_best = train_in_turn(o, r, bow, m, carried, reached).best;

    if (o.pretrain_steps > 0) {
        run::say(
            "\npre-training the encoder as a masked language model: {} fortunes of {} files (the held-out "
            "ones left out), {:.0f}% of tokens masked, {} steps\n",
            s.corpus.ids.size(), data::kFortuneFiles.size(), 100 * o.mask_prob, o.pretrain_steps);
        Generator masks(o.seed + 5);
        const std::vector<std::int64_t> unlabelled(s.corpus.ids.size(), 0);
        Training pretraining{"pretraining",    "pre-trained", *m.masked_lm,
                             o.pretrain_steps, o.adamw.lr,    o.adamw.weight_decay,
                             o.seed + 6,       unlabelled,    1};
        pretraining.loss = [&](const auto& batch, std::int64_t first, std::int64_t last) {
            return masked_lm_loss(m, s, o.mask_prob, masks, batch, first, last);
        };
        pretraining.generators = {{"masks", &masks}};
        train_in_turn(o, r, pretraining, m, carried, reached);
    }

    run::say("\ntransformer\n");
    Generator drops(o.seed + 3);
    Training transformer{"transformer",        "trained",  *m.classifier,  o.steps, o.adamw.lr,
                         o.adamw.weight_decay, o.seed + 2, s.train.labels, K};
    transformer.loss = [&](const auto& batch, std::int64_t first, std::int64_t last) {
        return transformer_loss(m, s, o.token_drop, drops, batch, first, last);
    };
    transformer.generators = {{"token_drop", &drops}};
    transformer.validate = [&] { return transformer_tally(m, s.validation); };
    return {bow_best, train_in_turn(o, r, transformer, m, carried, reached)};
}

// ---- the report

// A model of the report and the step it was taken at; its best.score is {validation accuracy, -loss}.
struct Chosen {
    std::string what;
    run::BestStep best;
};

void print_results(const std::vector<std::string>& names, const run::ClassificationTally& model_tally,
                   const run::ClassificationTally& bow_tally, std::int64_t majority,
                   const std::vector<std::int64_t>& train_per_class, const Chosen& model, const Chosen& bow) {
    const std::size_t K = names.size();
    std::vector<std::int64_t> test_per_class;
    for (const auto& row : model_tally.confusion())
        test_per_class.push_back(std::accumulate(row.begin(), row.end(), std::int64_t{0}));
    run::say("\n{}", run::class_table("category", names, {{"train", train_per_class}, {"test", test_per_class}},
                                      {{"transformer", &model_tally.confusion()}, {"BoW LR", &bow_tally.confusion()}}));
    const double acc = model_tally.accuracy(), bow_acc = bow_tally.accuracy(), major = 1.0 / static_cast<double>(K);
    run::say("\naccuracy ({} classes, as many fortunes of each), each model taken at its best validation step:\n", K);
    run::say("  {:<58} {:>10} {:>6}\n", "", "validation", "test");
    run::say("  {:<58} {:>9.1f}% {:>5.1f}%\n",
             fmt::format("majority class ({})", names[static_cast<std::size_t>(majority)]), 100 * major, 100 * major);
    for (const auto& [c, test] : {std::pair{bow, bow_acc}, std::pair{model, acc}})
        run::say("  {:<58} {:>9.1f}% {:>5.1f}%\n", fmt::format("{} (step {} of {})", c.what, c.best.step, c.best.steps),
                 100 * c.best.score.at(0), 100 * test);
    const double over_bow = 100 * (acc - bow_acc), over_major = 100 * (acc - major);
    if (acc > bow_acc && acc > major)
        run::say("the transformer beats the bag of words by {:.1f} points and the majority class by {:.1f}\n", over_bow,
                 over_major);
    else
        run::say(
            "the transformer does NOT beat {}: {:+.1f} points against the bag of words, {:+.1f} against the "
            "majority class\n",
            acc <= bow_acc ? "the bag of words" : "the majority class", over_bow, over_major);
}

// The flags, in the groups a checkpoint records (run/flags/flag_groups.h). The
// model's: everything the modules and the tokenizer are built from, and the
// split (--seed draws it: the test fortunes --load scores on must be those
// held out); --load adopts them. The training's: how the trainings ran,
// compared by --resume. --fortunes is not recorded: a checkpoint records a
// digest of the fortunes read, not the folder.
void add_flags(run::Flags& f, Options& o) {
    run::FlagGroup data = f.group("Data", run::Recorded::model);
    f.group("Data", run::Recorded::none)
        .add("--fortunes", o.fortunes,
             "the folder of Debian's fortunes files (a checkpoint records a digest of the fortunes read, not the "
             "folder)");
    data.add("--categories", o.categories, "the fortunes files to tell apart, separated by commas (at least 2)");
    data.add("--test-per-class", o.test_per_class, "test fortunes of each category, held out")
        ->check(CLI::Range(1, 100000));
    data.add("--val-per-class", o.val_per_class,
             "validation fortunes of each category, taken from the training ones: each model keeps the step that "
             "scores best on them")
        ->check(CLI::Range(1, 100000));
    data.add("--seed", o.seed, "seed of the split, initialisation and sampling")->check(run::seed_value());

    run::FlagGroup model = f.group("Model", run::Recorded::model);
    model
        .add("--tokens", o.tokens,
             "bpe: byte-level BPE subwords learnt on the training fortunes; chars: bytes; words: the bag of words' "
             "words")
        ->check(CLI::IsMember({"bpe", "chars", "words"}));
    model
        .add("--word-min-count", o.word_min_count,
             "--tokens words: a word has an id of its own if this many training fortunes hold it")
        ->check(CLI::Range(1, 1000000));
    model.add("--bpe-vocab", o.bpe_vocab, "BPE vocabulary: 256 bytes + merges")->check(CLI::Range(257, 50000));
    model.add("--max-len", o.max_len, "tokens kept of a fortune (longer ones are cut, and counted)")
        ->check(CLI::Range(1, 4096));
    model.add("--pooling", o.pooling, "cls: a [CLASS] token's output; mean: the mean of the tokens (002)")
        ->check(CLI::IsMember({"cls", "mean"}));
    run::add_model_flags(model, o.model, {.help = "N, encoder layers"});
    model
        .add("--pretrain-steps", o.pretrain_steps,
             "first pre-train the encoder as a masked language model on every fortunes file but the held-out "
             "fortunes, for this many steps (0: none)")
        ->check(CLI::Range(0, 10000000));
    model
        .add("--bow-min-count", o.bow_min_count,
             "a word is a feature of the bag of words if this many training "
             "fortunes hold it")
        ->check(CLI::Range(1, 1000000));

    run::FlagGroup training = f.group("Training", run::Recorded::training);
    training.add("--eval-every", o.eval_every, "score both models on the validation fortunes every this many steps")
        ->check(CLI::Range(1, 10000000));
    training.add("--token-drop", o.token_drop, "leave out each token of a training text with this probability")
        ->check(run::finite_range(0.0, 0.9));
    training.add("--mask-prob", o.mask_prob, "pre-training: the share of tokens masked and predicted")
        ->check(run::finite_range(0.01, 0.9));
    training.add("--steps", o.steps, "training steps of the transformer")->check(CLI::Range(1, 10000000));
    training.add("--batch", o.batch, "fortunes per step (both models)")->check(CLI::Range(1, 4096));
    training.add("--warmup", o.warmup, "linear warmup steps before the cosine decay")->check(CLI::Range(0, 10000000));
    run::add_adamw_flags(training, o.adamw, "peak learning rate of the transformer (AdamW)");
    training.add("--bow-steps", o.bow_steps, "training steps of the bag-of-words baseline")
        ->check(CLI::Range(1, 10000000));
    training.add("--bow-lr", o.bow_lr, "its peak learning rate")->check(run::finite_positive());
    training.add("--bow-weight-decay", o.bow_weight_decay, "its weight decay")->check(run::finite_range(0.0, 10.0));

    f.group("Output", run::Recorded::none)
        .add("--figures", o.figures, "draw the confusion matrix and the loss curves into this folder (PNG and SVG)")
        ->check(run::path_value());
}

// The transformer's config: ids 0 pads, 1 .. tokens the tokenizer's, then pre-training's [MASK].
models::TextClassifierConfig model_config(const Options& o, std::int64_t vocab, std::int64_t classes) {
    models::TextClassifierConfig c{.vocab = vocab, .max_len = o.max_len, .d_model = o.model.d_model};
    c.n_layers = o.model.layers, c.heads = o.model.heads, c.d_ff = o.model.d_ff, c.dropout = o.model.dropout;
    c.classes = classes, c.pooling = models::parse_pooling(o.pooling), c.pad = 0, c.seed = o.seed;
    return c;
}

// The bytes a run holds: the transformer's AdamW step on a batch of --max-len
// fortunes (pre-training adds its head and the logits over the vocabulary), or
// scoring 64 of them. The vocabulary is known only once the fortunes are read:
// words count as 20000 ids (with pre-training the fortunes hold about 15500
// words found in two entries or more), as does the bag of words.
run::MemoryEstimate memory_estimate(const Options& o, bool training) {
    const double V = o.tokens == "chars" ? 258 : o.tokens == "bpe" ? static_cast<double>(o.bpe_vocab) + 2 : 20000;
    const auto K = static_cast<std::int64_t>(data::parse_fortune_categories(o.categories).size());
    const auto N = static_cast<double>(o.model.layers), D = static_cast<double>(o.model.d_model),
               F = static_cast<double>(o.model.d_ff), H = static_cast<double>(o.model.heads),
               T = static_cast<double>(o.max_len) + 1;
    const double B = training ? static_cast<double>(o.batch) : 64, pretraining = o.pretrain_steps > 0 ? 1 : 0;
    run::MemoryEstimate e;
    e.parameters = model_config(o, static_cast<std::int64_t>(V), K).parameter_count() + 20000 * static_cast<double>(K) +
                   pretraining * (V * D + V);
    e.activations = run::transformer_activations(N, B, T, D, F, H, T) + (training ? pretraining * B * T * V : 0);
    return e;
}

// What --load reads of a finished run: the chosen steps and the transformer's curves.
std::pair<run::BestStep, Trained> finished_run(const nn::RunRecord& r, const std::string& path) {
    const std::string phase = kPhases.saved_in(r, path);
    const std::int64_t step = run::saved_step(r, path);
    Trained transformer;
    if (phase == "transformer") transformer.best = run::recorded_best(r, "transformer", path);
    if (phase != "transformer" || step != transformer.best.steps)
        throw std::runtime_error(
            fmt::format("{} was saved at step {} of the {}, before the run's end: --resume {} "
                        "finishes it",
                        path, step, phase == "bag_of_words" ? "bag of words" : phase, path));
    transformer.loss = run::curve_of(r, "curve.loss");
    transformer.lr = run::curve_of(r, "curve.lr");
    transformer.validation = run::curve_of(r, "curve.validation");
    return {run::recorded_best(r, "bag_of_words", path), transformer};
}

// What no single flag's check can see, before any work starts: the checkpoint
// (--resume's in a training, --load's of a finished run), flags that must
// agree, output paths, and the memory.
void check_flags(const run::Run& r, const Options& o) {
    if (!r.training() && !r.checkpoint.save.empty())
        throw CLI::ValidationError("--save", "writes a training's checkpoint; --load trains nothing");
    try {
        if (!r.checkpoint.resume.empty()) kPhases.saved_in(r.saved(), r.checkpoint.resume);
        if (!r.training()) finished_run(r.saved(), r.checkpoint.load);
    } catch (const std::runtime_error& e) {
        throw CLI::ValidationError(r.training() ? "--resume" : "--load", e.what());
    }
    run::check_model_flags(o.model);
    try {
        const std::vector<std::string> categories = data::parse_fortune_categories(o.categories);
        std::error_code ec;
        if (std::filesystem::is_directory(o.fortunes, ec))  // a missing folder: the work names the package to install
            for (const std::string& category : categories)
                if (std::string missing = data::missing_fortune_file(o.fortunes, category); !missing.empty())
                    throw data::DatasetError(missing);
    } catch (const data::DatasetError& e) {
        throw CLI::ValidationError("--categories", e.what());
    }
    run::require_batch_per_rank("--batch", o.batch);
    run::check_run_outputs(r.checkpoint.save, "", o.figures);
    run::require_memory("--batch", memory_estimate(o, r.training()), r.training());
}

// Trains (or loads) the models, then scores them on the held-out test fortunes.
int work(run::Run& r, const Options& o) {
    const std::vector<std::string> categories = data::parse_fortune_categories(o.categories);
    const data::LabelledFortunes fortunes =
        data::read_labelled_fortunes(o.fortunes, categories,
                                     {o.test_per_class, o.val_per_class, o.seed, o.pretrain_steps > 0});
    const nn::RunRecord& saved = r.saved();
    const std::string& from = r.checkpoint.resume.empty() ? r.checkpoint.load : r.checkpoint.resume;
    if (auto it = saved.text.find("fortunes");
        !from.empty() && (it == saved.text.end() || it->second != fortunes.digest))
        throw std::runtime_error(
            fmt::format("{} was trained on {}; {} gives {}: give --fortunes the folder it was "
                        "trained on",
                        from, it == saved.text.end() ? "unknown fortunes" : it->second, o.fortunes, fortunes.digest));
    const data::FortuneSplit& split = fortunes.split;
    const auto K = static_cast<std::int64_t>(categories.size());

    // Tokens are learnt on the text the model trains on (the held-out fortunes are never seen).
    const bool pretraining = o.pretrain_steps > 0;
    const run::TextTokenizer tokenizer =
        run::make_text_tokenizer({o.tokens, o.bpe_vocab, o.word_min_count,
                                  pretraining ? "pre-training fortunes" : "training fortunes"},
                                 pretraining ? fortunes.unlabelled : split.train);
    auto tokenized = [&](const auto& texts) { return data::tokenize_texts(texts, tokenizer.encode, o.max_len); };
    Sets s;
    s.train = tokenized(split.train), s.validation = tokenized(split.validation), s.test = tokenized(split.test);
    if (pretraining) s.corpus = tokenized(fortunes.unlabelled);
    std::int64_t tokens = 0;
    for (const auto& ids : s.train.ids) tokens += static_cast<std::int64_t>(ids.size());
    // The bag of words: unit-length word-presence vectors over the words of --bow-min-count training fortunes.
    s.bow = data::split_bags_of_words(split, o.bow_min_count);
    if (s.bow.words == 0)
        throw CLI::ValidationError("--bow-min-count", fmt::format("no word is held by {} of the {} training fortunes: "
                                                                  "the bag of words would have no feature",
                                                                  o.bow_min_count, split.train.size()));

    // Ids: 0 pads, 1 .. size are the tokens, size + 1 is pre-training's [MASK].
    s.mask_id = tokenizer.size + 1;
    const models::TextClassifierConfig mc = model_config(o, s.mask_id + 1, K);
    RunModules m(s.bow.words, mc, o);

    std::string counts;
    for (std::size_t k = 0; k < categories.size(); ++k)
        counts += fmt::format("{}{} {}", k ? ", " : "", categories[k], split.train_per_class[k]);
    run::say(
        "fortunes of {} categories from {}: {} training ({}), {} validation and {} test ({} and {} per "
        "category); {} fortunes found in two categories left out\n",
        K, o.fortunes, split.train.size(), counts, split.validation.size(), split.test.size(), o.val_per_class,
        o.test_per_class, split.ambiguous);
    run::say(
        "tokens: {} ({} ids), {:.1f} per training fortune; {} training, {} validation and {} test fortunes "
        "cut to --max-len {}\n",
        tokenizer.description, mc.vocab, static_cast<double>(tokens) / static_cast<double>(s.train.ids.size()),
        s.train.truncated, s.validation.truncated, s.test.truncated, o.max_len);
    const std::string training =
        r.training() ? fmt::format(
                           " | AdamW lr {} wd {}, warmup {} + cosine, batch {} balanced by class, tokens left "
                           "out {}, {} steps, validated every {}",
                           o.adamw.lr, o.adamw.weight_decay, o.warmup, o.batch, o.token_drop, o.steps, o.eval_every)
                     : "";
    r.announce(fmt::format("transformer: {} pooling, N={} D={} heads={} d_ff={} dropout {}, {} parameters{}", o.pooling,
                           o.model.layers, o.model.d_model, o.model.heads, o.model.d_ff, o.model.dropout,
                           m.classifier->parameter_count(), training));

    std::pair<run::BestStep, Trained> chosen;
    if (r.training()) {
        nn::RunRecord carried = r.record();
        carried.text["fortunes"] = fortunes.digest;
        chosen = train_run(o, r, m, s, carried);
    } else {
        chosen = finished_run(saved, r.checkpoint.load);
        r.take_checkpoint()->load(m);
        run::say("loaded {}\n", r.checkpoint.load);
    }
    if (!r.is_root()) return 0;  // rank 0 scores the models every rank holds
    const auto& [bow, transformer] = chosen;

    // The majority class of the training set: on a balanced test set it scores 1/K.
    const auto majority = static_cast<std::int64_t>(
        std::max_element(split.train_per_class.begin(), split.train_per_class.end()) - split.train_per_class.begin());
    nn::EvalGuard eval(*m.classifier);
    const run::ClassificationTally bow_test = bow_tally(m, s, s.test, s.bow.test), test = transformer_tally(m, s.test);
    const std::string tokens_name = o.tokens == "bpe" ? "subwords" : o.tokens == "chars" ? "characters" : "words";
    print_results(categories, test, bow_test, majority, split.train_per_class,
                  {fmt::format("transformer ({} pooling, {})", o.pooling, tokens_name), transformer.best},
                  {"bag-of-words logistic regression", bow});

    if (!o.figures.empty()) {
        run::say("\nfigures written:\n");
        for (const std::string& path :
             run::write_figure(o.figures + "/text_confusion",
                               run::confusion_figure(test.confusion(), categories, "fortunes")))
            run::say("  {}\n", path);
        run::write_loss_curve(o.figures, {"text_classifier: the transformer's loss and learning rate", transformer.loss,
                                          transformer.lr, transformer.validation, "validation loss"});
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    return run::main(argc, argv,
                     {.name = "text_classifier",
                      .about = "Train an encoder-only Transformer to tell which fortunes file a fortune comes from, "
                               "beside a majority-class and a bag-of-words baseline.",
                      .saves = "every model of the run, the optimizer's state, the generators, the curves and the "
                               "training it was saved in",
                      .presets = {.names = {"default", "quick"},
                                  .help = "default (about 1.5 minutes on 2 cores) or quick (seconds: every step of it, "
                                          "on less)",
                                  .apply = [&](const std::string& preset) { apply_preset(o, preset); }},
                      .seed = &o.seed,
                      .flags = [&](run::Flags& f) { add_flags(f, o); },
                      .check = [&](run::Run& r) { check_flags(r, o); },
                      .work = [&](run::Run& r) { return work(r, o); }});
}
