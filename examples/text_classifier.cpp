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
//   ./build/examples/text_classifier --help               every flag
#include <algorithm>
#include <functional>
#include <memory>
#include <numeric>
#include <set>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "autograd/autograd.h"
#include "data/balanced_sampler.h"
#include "data/char_corpus.h"
#include "data/fortune_categories.h"
#include "data/train_bpe.h"
#include "data/word_tokens.h"
#include "run/console.h"
#include "run/figure_files.h"
#include "run/flags.h"
#include "run/interruption.h"
#include "run/load_or_train.h"
#include "run/loss_curve_figure.h"
#include "run/machine_flags.h"
#include "run/output_files.h"
#include "run/progress_bar.h"
#include "run/run_program.h"
#include "run/vit_figures.h"
#include "models/masked_language_model.h"
#include "models/text_classifier.h"
#include "nn/clip_grad.h"
#include "nn/linear.h"
#include "nn/lr_schedule.h"
#include "nn/non_finite.h"
#include "nn/optim/adamw.h"

using namespace autograd;

namespace {

struct Options {
    std::string fortunes = "/usr/share/games/fortunes";
    std::vector<std::string> categories = {"computers", "science", "politics", "art", "startrek", "food", "law"};
    std::int64_t test_per_class = 40;
    std::int64_t val_per_class = 20, eval_every = 50;
    std::string tokens = "words";  // or "bpe": byte-level BPE subwords; or "chars": the UTF-8 bytes
    std::int64_t bpe_vocab = 2000, word_min_count = 2, max_len = 128;
    std::string pooling = "cls";
    std::int64_t d_model = 128, layers = 2, heads = 4, d_ff = 512;
    double dropout = 0.2, token_drop = 0.1;
    std::int64_t steps = 1500, batch = 32, warmup = 100;
    std::int64_t pretrain_steps = 0;
    double mask_prob = 0.15;
    double lr = 1e-3, weight_decay = 0.1, clip = 1.0;
    std::int64_t bow_steps = 1500, bow_min_count = 2;
    double bow_lr = 0.02, bow_weight_decay = 0.01;
    std::uint64_t seed = 1;
    bool quick = false;
    run::MachineFlags machine;
    std::string figures;
    bool detect_anomaly = false;
};

// The short run the test suite makes: every step of the real one, on less.
void apply_quick(Options& o) {
    o.test_per_class = 20, o.val_per_class = 10, o.eval_every = 10, o.bpe_vocab = 300, o.max_len = 48, o.d_model = 32, o.d_ff = 64, o.layers = 1;
    o.steps = 40, o.bow_steps = 40, o.warmup = 10;
}

// What the model reads of a text: `size` token ids 0 .. size - 1.
struct Tokenizer {
    std::int64_t size;
    std::function<std::vector<std::int64_t>(const std::string&)> encode;
    std::string description;
};

// Subwords (or bytes, with no merges) learnt on `texts`; or the words of at
// least `min_count` of them, the last id standing for any other word.
Tokenizer make_tokenizer(const Options& o, const std::vector<data::LabelledText>& texts, const std::string& which) {
    if (o.tokens == "words") {
        std::vector<std::string> all;
        for (const auto& t : texts) all.push_back(t.text);
        auto vocab = std::make_shared<data::WordVocabulary>(all, o.word_min_count);
        const std::int64_t unknown = vocab->size();
        return {unknown + 1, [vocab, unknown](const std::string& text) {
                    std::vector<std::int64_t> ids = vocab->encode(text, unknown);
                    if (ids.empty()) ids.push_back(unknown);  // a text of punctuation alone: one unknown word
                    return ids;
                },
                fmt::format("words held by at least {} of the {} fortunes, and one id for any other word",
                            o.word_min_count, which)};
    }
    std::string bpe_text;
    for (const auto& t : texts) bpe_text += t.text + "\n";
    auto bpe = std::make_shared<data::BytePairEncoding>(data::train_bpe(bpe_text, o.tokens == "bpe" ? o.bpe_vocab : 256));
    return {bpe->vocab_size(), [bpe](const std::string& text) { return bpe->encode(text); },
            o.tokens == "bpe" ? fmt::format("byte-level BPE, {} merges learnt on the {} fortunes", bpe->merges().size(), which)
                              : std::string("characters (UTF-8 bytes)")};
}

// A tokenised text set: ids (shifted by one, 0 is padding) and labels.
struct Encoded {
    std::vector<std::vector<std::int64_t>> ids;
    std::vector<std::int64_t> labels;
    std::int64_t truncated = 0;  // texts longer than --max-len, cut to it
};

Encoded encode(const std::vector<data::LabelledText>& texts, const Tokenizer& tokenizer, std::int64_t max_len) {
    Encoded e;
    for (const auto& t : texts) {
        std::vector<std::int64_t> ids = tokenizer.encode(t.text);
        if (static_cast<std::int64_t>(ids.size()) > max_len) ids.resize(static_cast<std::size_t>(max_len)), ++e.truncated;
        for (auto& id : ids) id += 1;  // 0 pads
        e.ids.push_back(std::move(ids));
        e.labels.push_back(t.label);
    }
    return e;
}

// ids [B, longest] padded with 0, and labels [B]. With `drop` > 0 (training
// only) each token is left out with that probability, the first always kept:
// a text seen twice is seen as two texts, which the model cannot memorise.
std::pair<Tensor, Tensor> token_batch(const Encoded& e, const std::vector<std::size_t>& rows, double drop = 0,
                                      Generator* gen = nullptr) {
    std::vector<std::vector<std::int64_t>> texts;
    std::size_t T = 1;
    for (std::size_t r : rows) {
        std::vector<std::int64_t> ids;
        for (std::size_t i = 0; i < e.ids[r].size(); ++i)
            if (drop == 0 || i == 0 || gen->uniform() >= drop) ids.push_back(e.ids[r][i]);
        T = std::max(T, ids.size());
        texts.push_back(std::move(ids));
    }
    const auto B = static_cast<std::int64_t>(rows.size());
    Tensor x = zeros({B, static_cast<std::int64_t>(T)}, Dtype::int64), y = Tensor::empty({B}, Dtype::int64);
    for (std::int64_t b = 0; b < B; ++b) {
        const auto& ids = texts[static_cast<std::size_t>(b)];
        std::copy(ids.begin(), ids.end(), x.data<std::int64_t>() + b * static_cast<std::int64_t>(T));
        y.data<std::int64_t>()[b] = e.labels[rows[static_cast<std::size_t>(b)]];
    }
    return {x, y};
}

using Confusion = std::vector<std::vector<std::int64_t>>;  // [true][predicted]

double accuracy(const Confusion& c) {
    std::int64_t right = 0, all = 0;
    for (std::size_t y = 0; y < c.size(); ++y)
        for (std::size_t p = 0; p < c.size(); ++p) all += c[y][p], right += y == p ? c[y][p] : 0;
    return static_cast<double>(right) / static_cast<double>(std::max<std::int64_t>(all, 1));
}

// Predictions of `logits_of` over every row of a set, in batches, as a confusion matrix.
Confusion confusion_of(std::size_t n, std::int64_t classes, const std::vector<std::int64_t>& labels,
                       const std::function<Tensor(const std::vector<std::size_t>&)>& logits_of) {
    NoGradGuard no_grad;
    Confusion c(static_cast<std::size_t>(classes), std::vector<std::int64_t>(static_cast<std::size_t>(classes), 0));
    for (std::size_t i = 0; i < n; i += 64) {
        std::vector<std::size_t> rows(std::min<std::size_t>(64, n - i));
        std::iota(rows.begin(), rows.end(), i);
        Tensor pred = argmax(logits_of(rows), -1);
        for (std::size_t k = 0; k < rows.size(); ++k)
            c[static_cast<std::size_t>(labels[rows[k]])][static_cast<std::size_t>(pred.data<std::int64_t>()[k])] += 1;
    }
    return c;
}

// Accuracy and mean cross-entropy of `logits_of` over a whole set (the model in eval mode).
struct Score {
    double accuracy, loss;
};
Score score(std::size_t n, const std::vector<std::int64_t>& labels,
            const std::function<Tensor(const std::vector<std::size_t>&)>& logits_of) {
    NoGradGuard no_grad;
    double right = 0, loss = 0;
    for (std::size_t i = 0; i < n; i += 64) {
        std::vector<std::size_t> rows(std::min<std::size_t>(64, n - i));
        std::iota(rows.begin(), rows.end(), i);
        std::vector<double> y;
        for (auto r : rows) y.push_back(static_cast<double>(labels[r]));
        Tensor logits = logits_of(rows), pred = argmax(logits, -1);
        loss += cross_entropy(logits, tensor(y, Dtype::int64)).item() * static_cast<double>(rows.size());
        for (std::size_t k = 0; k < rows.size(); ++k) right += pred.data<std::int64_t>()[k] == labels[rows[k]];
    }
    return {right / static_cast<double>(n), loss / static_cast<double>(n)};
}

// One AdamW training loop for either model: `loss_of` takes a batch of rows.
// With `validate` set, the model is scored on the validation fortunes every
// `eval_every` steps and at the end, and keeps the parameters of its best
// score (early stopping: the highest accuracy, then the lowest loss), so the
// held-out test fortunes choose nothing.
struct TrainSettings {
    std::int64_t steps, batch, warmup;
    double lr, weight_decay, clip;
    std::uint64_t seed;
    std::int64_t eval_every = 0;
    std::function<Score()> validate = {};
};
struct TrainResult {
    run::Curve loss, lr, val_loss;
    std::int64_t best_step = 0;
    Score best{0, 0};
};
TrainResult train(nn::Module& model, const std::vector<std::int64_t>& labels, std::int64_t classes,
                  const TrainSettings& s, const std::string& unit,
                  const std::function<Tensor(const std::vector<std::size_t>&)>& loss_of) {
    nn::optim::AdamW opt(model.parameters(), {.lr = s.lr, .weight_decay = s.weight_decay});
    nn::WarmupCosineSchedule schedule(s.lr, std::min(s.warmup, s.steps - 1), s.steps, s.lr / 100);
    data::BalancedSampler sampler(labels, classes, s.seed);
    run::ProgressBar bar(s.steps, unit);
    TrainResult r;
    std::vector<Tensor> params = model.parameters();
    std::vector<Tensor> best;  // the parameters at the best validation score; kept only when it validates
    if (s.validate)
        for (const Tensor& p : params) best.push_back(p.detach().clone());
    double running = 0;
    model.train();
    for (std::int64_t step = 1; step <= s.steps; ++step) {
        opt.set_lr(schedule.lr(step));
        opt.zero_grad();
        Tensor loss = loss_of(sampler.batch(s.batch));
        const double value = loss.item();
        nn::check_finite_loss(value, step);
        loss.backward();
        nn::check_finite_gradients(model, step);
        nn::clip_grad_norm_(model.parameters(), s.clip);
        opt.step();
        if (int sig = run::stop_signal())  // Ctrl-C, kill or a closed pipe: nothing to save, stop now
            throw run::Interrupted(sig, fmt::format("stopped by {} at step {} of {}; nothing saved",
                                                         run::signal_name(sig), step, s.steps));
        running = step == 1 ? value : 0.95 * running + 0.05 * value;
        r.loss.emplace_back(static_cast<double>(step), value);
        r.lr.emplace_back(static_cast<double>(step), opt.lr());
        if (s.validate && (step % s.eval_every == 0 || step == s.steps)) {
            Score v;
            {
                nn::EvalGuard eval(model);
                v = s.validate();
            }
            r.val_loss.emplace_back(static_cast<double>(step), v.loss);
            if (r.best_step == 0 || v.accuracy > r.best.accuracy ||
                (v.accuracy == r.best.accuracy && v.loss < r.best.loss)) {
                r.best_step = step, r.best = v;
                NoGradGuard no_grad;
                for (std::size_t i = 0; i < params.size(); ++i) best[i].copy_(params[i].detach());
            }
        }
        bar.update(step, s.batch,
                   r.best_step ? fmt::format("loss {:.4f}  lr {:.1e}  best validation {:.1f}% (step {})", running,
                                             opt.lr(), 100 * r.best.accuracy, r.best_step)
                               : fmt::format("loss {:.4f}  lr {:.1e}", running, opt.lr()));
    }
    if (r.best_step) {
        NoGradGuard no_grad;
        for (std::size_t i = 0; i < params.size(); ++i) params[i].detach().copy_(best[i]);
    }
    return r;
}

// ---- pre-training the encoder on unlabelled fortunes (BERT's masked language model; not in the notes)

// A batch of texts with `mask_prob` of their tokens chosen (at least one a
// text): the model reads [MASK] there (80%), a random token (10%) or the token
// itself (10%), and is scored on predicting the original (-100 elsewhere).
std::pair<Tensor, Tensor> masked_batch(const Encoded& corpus, const std::vector<std::size_t>& rows, double mask_prob,
                                       std::int64_t mask_id, Generator& gen) {
    auto [x, unused] = token_batch(corpus, rows);
    Tensor target = full(x.shape(), -100, Dtype::int64);
    std::int64_t *in = x.data<std::int64_t>(), *out = target.data<std::int64_t>();
    const std::int64_t T = x.size(1);
    for (std::int64_t b = 0; b < x.size(0); ++b) {
        const auto n = static_cast<std::int64_t>(corpus.ids[rows[static_cast<std::size_t>(b)]].size());
        const auto forced = static_cast<std::int64_t>(gen.next_u64() % static_cast<std::uint64_t>(n));
        for (std::int64_t t = 0; t < n; ++t) {
            if (t != forced && gen.uniform() >= mask_prob) continue;
            std::int64_t& id = in[b * T + t];
            out[b * T + t] = id;
            const double u = gen.uniform();
            if (u < 0.8) id = mask_id;
            else if (u < 0.9) id = 1 + static_cast<std::int64_t>(gen.next_u64() % static_cast<std::uint64_t>(mask_id - 1));
        }
    }
    return {x, target};
}

// ---- the bag-of-words baseline: logistic regression on which words a text holds

// x [B, V]: 1 / sqrt(n) at the n words a text holds (a unit vector), 0 elsewhere.
Tensor bow_features(const std::vector<std::vector<std::int64_t>>& bags, const std::vector<std::size_t>& rows,
                    std::int64_t V) {
    const auto B = static_cast<std::int64_t>(rows.size());
    Tensor x = zeros({B, V});
    float* p = x.data<float>();
    for (std::int64_t b = 0; b < B; ++b) {
        const auto& ids = bags[rows[static_cast<std::size_t>(b)]];
        for (std::int64_t id : ids) p[b * V + id] = 1.0f / std::sqrt(static_cast<float>(ids.size()));
    }
    return x;
}

// ---- the report

// The validation score each model was chosen by, and the step it was taken at.
struct Chosen {
    std::string what;
    Score validation;
    std::int64_t step, steps;
};

void print_results(const std::vector<std::string>& names, const Confusion& model, const Confusion& bow,
                   std::int64_t majority, const std::vector<std::int64_t>& train_per_class, const Chosen& model_chosen,
                   const Chosen& bow_chosen) {
    const std::size_t K = names.size();
    run::say("\n{:<12} {:>6} {:>7} {:>11} {:>9}   confusion of the transformer (rows: true, columns: predicted)\n",
                  "category", "train", "test", "transformer", "BoW LR");
    for (std::size_t y = 0; y < K; ++y) {
        const std::int64_t n = std::accumulate(model[y].begin(), model[y].end(), std::int64_t{0});
        std::string row;
        for (auto c : model[y]) row += fmt::format("{:>4}", c);
        run::say("{:<12} {:>6} {:>7} {:>10.1f}% {:>8.1f}%  {}\n", names[y], train_per_class[y], n,
                      100.0 * static_cast<double>(model[y][y]) / static_cast<double>(n),
                      100.0 * static_cast<double>(bow[y][y]) / static_cast<double>(n), row);
    }
    const double acc = accuracy(model), bow_acc = accuracy(bow), major = 1.0 / static_cast<double>(K);
    run::say("\naccuracy ({} classes, as many fortunes of each), each model taken at its best validation step:\n", K);
    run::say("  {:<58} {:>10} {:>6}\n", "", "validation", "test");
    run::say("  {:<58} {:>9.1f}% {:>5.1f}%\n",
                  fmt::format("majority class ({})", names[static_cast<std::size_t>(majority)]), 100 * major, 100 * major);
    for (const auto& [c, test] : {std::pair{bow_chosen, bow_acc}, std::pair{model_chosen, acc}})
        run::say("  {:<58} {:>9.1f}% {:>5.1f}%\n", fmt::format("{} (step {} of {})", c.what, c.step, c.steps),
                      100 * c.validation.accuracy, 100 * test);
    const double over_bow = 100 * (acc - bow_acc), over_major = 100 * (acc - major);
    if (acc > bow_acc && acc > major)
        run::say("the transformer beats the bag of words by {:.1f} points and the majority class by {:.1f}\n",
                      over_bow, over_major);
    else
        run::say("the transformer does NOT beat {}: {:+.1f} points against the bag of words, {:+.1f} against the "
                      "majority class\n",
                      acc <= bow_acc ? "the bag of words" : "the majority class", over_bow, over_major);
}

void add_flags(CLI::App& app, Options& o, int argc, char** argv) {
    bool quick = false;
    {
        CLI::App pre;
        pre.allow_extras();
        pre.set_help_flag();
        pre.add_flag("--quick", quick);
        try {
            pre.parse(argc, argv);
        } catch (const CLI::ParseError&) {
        }
    }
    if (quick) apply_quick(o);  // --quick sets the defaults; flags given override them
    app.add_flag("--quick", o.quick, "a short run on less (seconds; the test suite's)");
    app.add_option("--fortunes", o.fortunes, "the folder of Debian's fortunes files")->capture_default_str();
    app.add_option("--categories", o.categories, "the fortunes files to tell apart (at least 2)")
        ->delimiter(',')->capture_default_str();
    app.add_option("--test-per-class", o.test_per_class, "test fortunes of each category, held out")
        ->check(CLI::Range(1, 100000))->capture_default_str();
    app.add_option("--val-per-class", o.val_per_class,
                   "validation fortunes of each category, taken from the training ones: each model keeps the step "
                   "that scores best on them")
        ->check(CLI::Range(1, 100000))->capture_default_str();
    app.add_option("--eval-every", o.eval_every, "score both models on the validation fortunes every this many steps")
        ->check(CLI::Range(1, 10000000))->capture_default_str();
    app.add_option("--tokens", o.tokens,
                   "bpe: byte-level BPE subwords learnt on the training fortunes; chars: bytes; words: the "
                   "bag of words' words")
        ->check(CLI::IsMember({"bpe", "chars", "words"}))->capture_default_str();
    app.add_option("--word-min-count", o.word_min_count,
                   "--tokens words: a word has an id of its own if this many training fortunes hold it")
        ->check(CLI::Range(1, 1000000))->capture_default_str();
    app.add_option("--bpe-vocab", o.bpe_vocab, "BPE vocabulary: 256 bytes + merges")
        ->check(CLI::Range(257, 50000))->capture_default_str();
    app.add_option("--max-len", o.max_len, "tokens kept of a fortune (longer ones are cut, and counted)")
        ->check(CLI::Range(1, 4096))->capture_default_str();
    app.add_option("--pooling", o.pooling, "cls: a [CLASS] token's output; mean: the mean of the tokens (002)")
        ->check(CLI::IsMember({"cls", "mean"}))->capture_default_str();
    app.add_option("--d-model", o.d_model, "token width D")->check(CLI::Range(2, 4096))->capture_default_str();
    app.add_option("--layers", o.layers, "encoder layers N")->check(CLI::Range(1, 64))->capture_default_str();
    app.add_option("--heads", o.heads, "attention heads (divide D)")->check(CLI::Range(1, 64))->capture_default_str();
    app.add_option("--d-ff", o.d_ff, "MLP hidden width")->check(CLI::Range(1, 16384))->capture_default_str();
    app.add_option("--dropout", o.dropout, "dropout")->check(run::finite_range(0.0, 0.99))->capture_default_str();
    app.add_option("--token-drop", o.token_drop, "leave out each token of a training text with this probability")
        ->check(run::finite_range(0.0, 0.9))->capture_default_str();
    app.add_option("--pretrain-steps", o.pretrain_steps,
                   "first pre-train the encoder as a masked language model on every fortunes file but the held-out "
                   "fortunes, for this many steps (0: none)")
        ->check(CLI::Range(0, 10000000))->capture_default_str();
    app.add_option("--mask-prob", o.mask_prob, "pre-training: the share of tokens masked and predicted")
        ->check(run::finite_range(0.01, 0.9))->capture_default_str();
    app.add_option("--steps", o.steps, "training steps of the transformer")->check(CLI::Range(1, 10000000))->capture_default_str();
    app.add_option("--batch", o.batch, "fortunes per step (both models)")->check(CLI::Range(1, 4096))->capture_default_str();
    app.add_option("--warmup", o.warmup, "linear warmup steps before the cosine decay")
        ->check(CLI::Range(0, 10000000))->capture_default_str();
    app.add_option("--lr", o.lr, "peak learning rate of the transformer (AdamW)")
        ->check(run::finite_positive())->capture_default_str();
    app.add_option("--weight-decay", o.weight_decay, "AdamW's decoupled weight decay")
        ->check(run::finite_range(0.0, 10.0))->capture_default_str();
    app.add_option("--clip", o.clip, "gradient clipping: max global norm")->check(run::finite_positive())->capture_default_str();
    app.add_option("--bow-steps", o.bow_steps, "training steps of the bag-of-words baseline")
        ->check(CLI::Range(1, 10000000))->capture_default_str();
    app.add_option("--bow-lr", o.bow_lr, "its peak learning rate")->check(run::finite_positive())->capture_default_str();
    app.add_option("--bow-weight-decay", o.bow_weight_decay, "its weight decay")
        ->check(run::finite_range(0.0, 10.0))->capture_default_str();
    app.add_option("--bow-min-count", o.bow_min_count, "a word is a feature if this many training fortunes hold it")
        ->check(CLI::Range(1, 1000000))->capture_default_str();
    app.add_option("--seed", o.seed, "seed of the split, initialisation and sampling")
        ->check(run::seed_value())->capture_default_str();
    run::add_machine_flags(app, o.machine);
    app.add_option("--figures", o.figures, "draw the confusion matrix and the loss curves into this folder (PNG and SVG)")
        ->check(run::path_value());
    app.add_flag("--detect-anomaly", o.detect_anomaly,
                 "check every op's output and gradient, and name the first op that makes a NaN or an infinity (slow)");
}

void check_flags(const Options& o) {
    if (o.d_model % o.heads != 0) throw CLI::ValidationError("--heads", "must divide --d-model");
    if (o.categories.size() < 2) throw CLI::ValidationError("--categories", "name at least two fortunes files");
    std::vector<std::string> sorted = o.categories;
    std::sort(sorted.begin(), sorted.end());
    if (auto it = std::adjacent_find(sorted.begin(), sorted.end()); it != sorted.end())
        throw CLI::ValidationError("--categories", fmt::format("'{}' is named twice", *it));
    run::check_output_folder("--figures", o.figures);
}

int work(const Options& o) {
    manual_seed(o.seed);  // dropout
    std::vector<std::vector<std::string>> by_class;
    for (const auto& c : o.categories) by_class.push_back(data::read_fortune_entries(o.fortunes, c));
    data::FortuneSplit split = data::split_by_class(by_class, o.categories, o.test_per_class, o.seed, o.val_per_class);
    const auto K = static_cast<std::int64_t>(o.categories.size());

    // The unlabelled text of pre-training: every entry of every fortunes file
    // (char_lm's corpus, data::kFortuneFiles, and the categories') but the
    // validation and test fortunes, wherever else they occur.
    std::vector<data::LabelledText> unlabelled;
    if (o.pretrain_steps > 0) {
        std::set<std::string> held_out, seen;
        for (const auto& t : split.test) held_out.insert(t.text);
        for (const auto& t : split.validation) held_out.insert(t.text);
        std::vector<std::string> files = data::kFortuneFiles;
        files.insert(files.end(), o.categories.begin(), o.categories.end());
        for (const auto& f : files) {
            if (!seen.insert(f).second) continue;
            for (auto& t : data::read_fortune_entries(o.fortunes, f))
                if (!held_out.count(t)) unlabelled.push_back({std::move(t), 0});
        }
    }
    // Tokens are learnt on the text the model trains on (the held-out fortunes are never seen).
    const Tokenizer tokenizer = make_tokenizer(o, o.pretrain_steps > 0 ? unlabelled : split.train,
                                               o.pretrain_steps > 0 ? "pre-training" : "training");
    const Encoded train_set = encode(split.train, tokenizer, o.max_len),
                  val_set = encode(split.validation, tokenizer, o.max_len),
                  test_set = encode(split.test, tokenizer, o.max_len);
    std::int64_t tokens = 0;
    for (const auto& ids : train_set.ids) tokens += static_cast<std::int64_t>(ids.size());

    // Ids: 0 pads, 1 .. size are the tokens, size + 1 is pre-training's [MASK].
    const std::int64_t mask_id = tokenizer.size + 1;
    models::TextClassifierConfig mc;
    mc.vocab = mask_id + 1, mc.max_len = o.max_len, mc.d_model = o.d_model, mc.n_layers = o.layers;
    mc.heads = o.heads, mc.d_ff = o.d_ff, mc.dropout = o.dropout, mc.classes = K, mc.pad = 0, mc.seed = o.seed;
    mc.pooling = models::parse_pooling(o.pooling);
    auto classifier = std::make_shared<models::TextClassifier>(mc);
    models::TextClassifier& model = *classifier;

    std::string counts;
    for (std::size_t k = 0; k < o.categories.size(); ++k)
        counts += fmt::format("{}{} {}", k ? ", " : "", o.categories[k], split.train_per_class[k]);
    run::say("fortunes of {} categories from {}: {} training ({}), {} validation and {} test ({} and {} per "
                  "category); {} fortunes found in two categories left out\n",
                  K, o.fortunes, split.train.size(), counts, split.validation.size(), split.test.size(), o.val_per_class,
                  o.test_per_class, split.ambiguous);
    run::say("tokens: {} ({} ids), {:.1f} per training fortune; {} training, {} validation and {} test fortunes "
                  "cut to --max-len {}\n",
                  tokenizer.description, mc.vocab, static_cast<double>(tokens) / static_cast<double>(train_set.ids.size()),
                  train_set.truncated, val_set.truncated, test_set.truncated, o.max_len);
    run::say("transformer: {} pooling, N={} D={} heads={} d_ff={} dropout {}, {} parameters | AdamW lr {} wd {}, "
                  "warmup {} + cosine, batch {} balanced by class, tokens left out {}, {} steps, validated every {} | {}\n",
                  o.pooling, o.layers, o.d_model, o.heads, o.d_ff, o.dropout, model.parameter_count(), o.lr,
                  o.weight_decay, o.warmup, o.batch, o.token_drop, o.steps, o.eval_every,
                  run::machine_summary(o.machine));

    // The majority class of the training set: on a balanced test set it scores 1/K.
    const auto majority = static_cast<std::int64_t>(
        std::max_element(split.train_per_class.begin(), split.train_per_class.end()) - split.train_per_class.begin());

    // The bag-of-words logistic regression: logits = x W^T + b on unit-length word-presence vectors.
    std::vector<std::string> train_texts;
    for (const auto& t : split.train) train_texts.push_back(t.text);
    const data::WordVocabulary bow_vocab(train_texts, o.bow_min_count);
    auto bags = [&](const std::vector<data::LabelledText>& texts) {
        std::vector<std::vector<std::int64_t>> out;
        for (const auto& t : texts) out.push_back(bow_vocab.bag(t.text));
        return out;
    };
    const auto bow_train = bags(split.train), bow_val = bags(split.validation), bow_test = bags(split.test);
    const std::int64_t V = bow_vocab.size();
    Generator bow_gen(o.seed);
    nn::Linear regression(V, K, true, bow_gen);
    run::say("\nbag of words: {} words held by at least {} training fortunes; logistic regression, AdamW lr {} "
                  "wd {}, {} steps\n",
                  V, o.bow_min_count, o.bow_lr, o.bow_weight_decay, o.bow_steps);
    TrainResult bow_run;
    run::timed("trained", [&] {
        bow_run = train(regression, train_set.labels, K,
                        {o.bow_steps, o.batch, o.warmup, o.bow_lr, o.bow_weight_decay, o.clip, o.seed + 1, o.eval_every,
                         [&] {
                             return score(bow_val.size(), val_set.labels, [&](const auto& rows) {
                                 return regression(bow_features(bow_val, rows, V));
                             });
                         }},
                        "text", [&](const std::vector<std::size_t>& rows) {
                            std::vector<std::int64_t> y;
                            for (auto r : rows) y.push_back(train_set.labels[r]);
                            return cross_entropy(regression(bow_features(bow_train, rows, V)),
                                                 tensor(std::vector<double>(y.begin(), y.end()), Dtype::int64));
                        });
    });
    const Confusion bow_confusion = confusion_of(test_set.ids.size(), K, test_set.labels, [&](const auto& rows) {
        return regression(bow_features(bow_test, rows, V));
    });

    if (o.pretrain_steps > 0) {
        Encoded corpus = encode(unlabelled, tokenizer, o.max_len);
        Generator mask_gen(o.seed + 5);
        models::MaskedLanguageModel lm(classifier, o.seed + 4);
        run::say("\npre-training the encoder as a masked language model: {} fortunes of {} files (the held-out "
                      "ones left out), {:.0f}% of tokens masked, {} steps\n",
                      corpus.ids.size(), data::kFortuneFiles.size(), 100 * o.mask_prob, o.pretrain_steps);
        run::timed("pre-trained", [&] {
            train(lm, std::vector<std::int64_t>(corpus.ids.size(), 0), 1,
                  {o.pretrain_steps, o.batch, o.warmup, o.lr, o.weight_decay, o.clip, o.seed + 6}, "text",
                  [&](const std::vector<std::size_t>& rows) {
                      auto [x, target] = masked_batch(corpus, rows, o.mask_prob, mask_id, mask_gen);
                      // the head reads only the chosen positions: [M, vocab]
                      std::vector<double> chosen, original;
                      for (std::int64_t i = 0; i < target.numel(); ++i)
                          if (const std::int64_t t = target.data<std::int64_t>()[i]; t != -100)
                              chosen.push_back(static_cast<double>(i)), original.push_back(static_cast<double>(t));
                      return cross_entropy(lm.forward(x, tensor(chosen, Dtype::int64)), tensor(original, Dtype::int64));
                  });
        });
    }
    run::say("\ntransformer\n");
    Generator drop_gen(o.seed + 3);
    TrainResult run;
    run::timed("trained", [&] {
        run = train(model, train_set.labels, K,
                    {o.steps, o.batch, o.warmup, o.lr, o.weight_decay, o.clip, o.seed + 2, o.eval_every,
                     [&] {
                         return score(val_set.ids.size(), val_set.labels,
                                      [&](const auto& rows) { return model.forward(token_batch(val_set, rows).first); });
                     }},
                    "text", [&](const std::vector<std::size_t>& rows) {
                        auto [x, y] = token_batch(train_set, rows, o.token_drop, &drop_gen);
                        return cross_entropy(model.forward(x), y);
                    });
    });
    nn::EvalGuard eval(model);
    const Confusion confusion = confusion_of(test_set.ids.size(), K, test_set.labels, [&](const auto& rows) {
        return model.forward(token_batch(test_set, rows).first);
    });
    const std::string tokens_name = o.tokens == "bpe" ? "subwords" : o.tokens == "chars" ? "characters" : "words";
    print_results(o.categories, confusion, bow_confusion, majority, split.train_per_class,
                  {fmt::format("transformer ({} pooling, {})", o.pooling, tokens_name), run.best, run.best_step, o.steps},
                  {"bag-of-words logistic regression", bow_run.best, bow_run.best_step, o.bow_steps});

    if (!o.figures.empty()) {
        run::say("\nfigures written:\n");
        for (const std::string& path :
             run::write_figure(o.figures + "/text_confusion", run::confusion_figure(confusion, o.categories, "fortunes")))
            run::say("  {}\n", path);
        run::write_loss_curve(o.figures, {"text_classifier: the transformer's loss and learning rate", run.loss,
                                               run.lr, run.val_loss, "validation loss"});
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app{"Train an encoder-only Transformer to tell which fortunes file a fortune comes from, beside a "
                 "majority-class and a bag-of-words baseline."};
    add_flags(app, o, argc, argv);
    if (int status = run::parse_flags(app, argc, argv, "text_classifier", [&] { check_flags(o); }); status >= 0)
        return status;
    return run::run_program("text_classifier", o.detect_anomaly, [&] {
        run::apply_machine_flags(o.machine, argv);
        return work(o);
    });
}
