// Translation of Bible verses with the encoder-decoder Transformer (004 §15.5.4;
// 001's model, trained as the copy task trains it): the King James Version
// into the World English Bible (archaic to modern English), or into Spanish
// (Reina-Valera 1909), read from Debian's SWORD modules, verse by verse.
//   ./build/examples/translate                     KJV -> WEB, 4 epochs (about 7 minutes on 2 idle cores; docs/translation.md)
//   ./build/examples/translate --task kjv-sparv    KJV -> RV1909
//   ./build/examples/translate --quick             a few hundred verses, seconds (the test suite's run)
//   ./build/examples/translate --load m.ckpt --beam 4 --figures figs
//   mpirun -np 2 ./build/examples/translate        each process computes half of every batch
// Each epoch prints BLEU and chrF on the validation books (sacreBLEU's
// definitions, data/bleu.h and data/chrf.h); at the end, the test books'
// scores beside the score of copying the source unchanged, and a few
// translations beside their references.
#include <algorithm>
#include <numeric>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "lectern/autograd/autograd.h"
#include "lectern/data/bleu.h"
#include "lectern/data/chrf.h"
#include "lectern/data/epoch_batches.h"
#include "lectern/data/repair_utf8.h"
#include "lectern/data/seq2seq_batch.h"
#include "lectern/data/sword_module.h"
#include "lectern/data/text_tokens.h"
#include "lectern/data/verse_corpus.h"
#include "lectern/models/beam_search.h"
#include "lectern/models/greedy_decode.h"
#include "lectern/models/transformer.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/loss.h"
#include "lectern/nn/lr_schedule.h"
#include "lectern/nn/optim/adam.h"
#include "lectern/run/figures/attention_figures.h"
#include "lectern/run/figures/attention_pages.h"
#include "lectern/run/shell/console.h"
#include "lectern/run/shell/data_parallel_run.h"
#include "lectern/run/figures/figure_files.h"
#include "lectern/run/flags/flags.h"
#include "lectern/run/shell/interruption.h"
#include "lectern/run/training/learn_subwords.h"
#include "lectern/run/shell/timed.h"
#include "lectern/run/shell/memory_budget.h"
#include "lectern/run/flags/model_flags.h"
#include "lectern/run/shell/output_files.h"
#include "lectern/run/shell/program.h"
#include "lectern/run/shell/progress_bar.h"
#include "lectern/run/training/training_loop.h"

using namespace autograd;

namespace {

struct Task {
    std::string name, source_module, target_module, description;
    bool copy_baseline;  // the source is a fair guess of the target (same language)
};

const std::vector<Task> kTasks{
    {"kjv-web", "engKJV2006eb", "engWEB2015eb", "King James Version -> World English Bible", true},
    {"kjv-sparv", "engKJV2006eb", "spaRV1909eb", "King James Version -> Reina-Valera 1909 (Spanish)", false},
};

const Task& task_named(const std::string& name) {
    for (const Task& t : kTasks)
        if (t.name == name) return t;
    throw std::logic_error("unknown task " + name);  // CLI11 checked the name
}

struct Options {
    std::string task = "kjv-web";
    std::int64_t vocab = 4000;  // byte-level BPE tokens, the 256 bytes included
    std::int64_t context = 96;  // longest source, and longest target with its start symbol
    run::ModelFlags model{.layers = 3, .d_model = 128, .heads = 4, .d_ff = 512, .dropout = 0.1};
    std::int64_t batch = 64, epochs = 4;
    std::int64_t train_limit = 0;  // 0: every training verse
    double lr = 1.0;
    std::int64_t warmup = 800;
    double smoothing = 0.1;
    std::uint64_t seed = 1;
    std::int64_t eval_verses = 0;  // 0: all of validation, each epoch
    std::int64_t beam = 1;
    double length_penalty = 0.6;
    std::int64_t show = 4;
    std::string figures;
};

// The preset quick: a few hundred verses and a small model, for the test suite.
void apply_preset(Options& o, const std::string& preset) {
    if (preset != "quick") return;
    o.vocab = 400, o.context = 48, o.model = {.layers = 1, .d_model = 32, .heads = 2, .d_ff = 64, .dropout = 0.1};
    o.batch = 16, o.epochs = 2, o.train_limit = 320, o.warmup = 40, o.eval_verses = 24, o.show = 2;
}

// Where a checkpoint keeps the BPE merges: data::TextTokens::saved()'s lines "a b".
const char* const kMergesKey = "bpe_merges";

// The vocabulary: the BPE tokens, then three symbols no text encodes to.
struct Vocabulary {
    data::TextTokens bpe;  // byte-level BPE subwords
    std::int64_t pad() const { return bpe.size(); }
    std::int64_t start() const { return bpe.size() + 1; }
    std::int64_t end() const { return bpe.size() + 2; }
    std::int64_t size() const { return bpe.size() + 3; }
    data::Seq2SeqSymbols symbols() const { return {.pad = pad(), .start = start(), .end = end()}; }
    // A token's bytes (a subword may hold part of a character), or the symbol's name.
    std::string token(std::int64_t id) const {
        if (id == pad()) return "<pad>";
        if (id == start()) return "<s>";
        if (id == end()) return "</s>";
        return bpe.decode({id});
    }
};

// The verse pairs of a split and their token ids.
struct Split {
    std::vector<data::VersePair> pairs;
    std::vector<data::TokenPair> examples;
    std::int64_t truncated_sources = 0, truncated_targets = 0;
};

struct Corpus {
    Vocabulary vocab;
    Split train, validation, test;
    data::VerseCorpus verses;  // counts only, after the splits were taken
};

// Sources longer than --context tokens keep their first --context; targets
// keep their first --context - 1 (the start symbol takes a place).
Split tokenize_split(std::vector<data::VersePair> pairs, const Vocabulary& v, std::int64_t context) {
    Split s;
    s.pairs = std::move(pairs);
    for (const data::VersePair& p : s.pairs) {
        data::TokenPair e{v.bpe.encode(p.source), v.bpe.encode(p.target)};
        if (static_cast<std::int64_t>(e.src.size()) > context)
            e.src.resize(static_cast<std::size_t>(context)), ++s.truncated_sources;
        if (static_cast<std::int64_t>(e.tgt.size()) > context - 1)
            e.tgt.resize(static_cast<std::size_t>(context - 1)), ++s.truncated_targets;
        s.examples.push_back(std::move(e));
    }
    return s;
}

// Every --train-limit'th part of the training verses, spread over the whole Bible.
std::vector<data::VersePair> every_kth(const std::vector<data::VersePair>& all, std::int64_t limit) {
    if (limit <= 0 || limit >= static_cast<std::int64_t>(all.size())) return all;
    std::vector<data::VersePair> out;
    for (std::int64_t i = 0; i < limit; ++i)
        out.push_back(all[static_cast<std::size_t>(i * static_cast<std::int64_t>(all.size()) / limit)]);
    return out;
}

// The verses, and the BPE merges: the checkpoint's (--load, --resume), or
// learnt from the training verses.
Corpus load_corpus(const Options& o, const nn::RunRecord& saved) {
    const Task& task = task_named(o.task);
    Corpus c;
    // The source first, then the target: a damaged source is named before the target is read.
    const std::vector<data::Verse> source = data::read_sword_module(task.source_module);
    const std::vector<data::Verse> target = data::read_sword_module(task.target_module);
    c.verses = data::pair_verses(source, target, data::default_held_out_books());
    run::say(
        "{}: {} and {} verses, {} paired ({} train, {} validation: Ruth, Philippians; {} test: Esther, Jonah, "
        "James), {} without a partner, {} with an empty side skipped\n",
        task.description, c.verses.source_verses, c.verses.target_verses,
        c.verses.train.size() + c.verses.validation.size() + c.verses.test.size(), c.verses.train.size(),
        c.verses.validation.size(), c.verses.test.size(), c.verses.unpaired, c.verses.empty_skipped);
    std::vector<data::VersePair> train = every_kth(c.verses.train, o.train_limit);
    if (auto merges = saved.text.find(kMergesKey); merges != saved.text.end()) {
        c.vocab.bpe = data::TextTokens::from_saved(true, merges->second);
        run::say("BPE: the checkpoint's {} merges\n", std::count(merges->second.begin(), merges->second.end(), '\n'));
    } else {
        std::string text;
        for (const data::VersePair& p : train) text += p.source + "\n" + p.target + "\n";
        c.vocab.bpe = data::TextTokens::subwords(
            run::learn_subwords(text, o.vocab, "--vocab", fmt::format("the {} training verses", train.size())));
    }
    std::vector<data::VersePair> validation = c.verses.validation;
    if (o.eval_verses > 0 && o.eval_verses < static_cast<std::int64_t>(validation.size()))
        validation.resize(static_cast<std::size_t>(o.eval_verses));
    c.train = tokenize_split(std::move(train), c.vocab, o.context);
    c.validation = tokenize_split(std::move(validation), c.vocab, o.context);
    c.test = tokenize_split(c.verses.test, c.vocab, o.context);
    for (auto [name, s] : {std::pair{"training", &c.train}, {"validation", &c.validation}, {"test", &c.test}})
        if (s->truncated_sources + s->truncated_targets > 0)
            run::say("{}: {} sources and {} targets longer than --context {} tokens were truncated\n", name,
                     s->truncated_sources, s->truncated_targets, o.context);
    return c;
}

models::TransformerConfig model_config(const Options& o, std::int64_t vocab) {
    models::TransformerConfig c;
    c.src_vocab = c.tgt_vocab = vocab;  // one BPE for both sides
    c.share_embeddings = true;          // 001 "Embeddings and Softmax"
    c.n_layers = o.model.layers, c.d_model = o.model.d_model, c.d_ff = o.model.d_ff, c.heads = o.model.heads;
    c.dropout = o.model.dropout;
    c.max_len = std::max<std::int64_t>(o.context + 1, 64);
    c.seed = o.seed;
    return c;
}

// What decoding made, as text: the tokens after <s> up to </s>. The start
// and padding symbols mean nothing inside a text; if the model chooses one
// there it is dropped and counted.
struct Outputs {
    std::vector<std::string> texts;
    std::vector<std::vector<std::int64_t>> tokens;  // <s> y (</s>)
    std::int64_t dropped_symbols = 0, replaced_bytes = 0;
};

std::string text_of(const std::vector<std::int64_t>& tokens, const Vocabulary& v, Outputs& o) {
    std::vector<std::int64_t> ids;
    for (std::size_t t = 1; t < tokens.size() && tokens[t] != v.end(); ++t)
        if (tokens[t] < v.bpe.size()) ids.push_back(tokens[t]);
        else ++o.dropped_symbols;
    // U+FFFD, as Python's decode(errors="replace") would put
    return data::repair_utf8(v.bpe.decode(ids),
                             [&](unsigned char) { return ++o.replaced_bytes, std::string("\xEF\xBF\xBD"); });
}

// What a stop signal does to a translation under way: `stop` ends it at the next verse (the
// final evaluation, minutes under a wide beam); `finish` lets it end (an epoch's validation:
// part of its step, so the step boundary right after it saves the run and stops).
enum class OnSignal { stop, finish };

// Translates every verse of a split: greedy (width 1, in batches of 64 with
// the KV cache) or beam search of width `beam`, one verse at a time.
Outputs translate(const models::Transformer& model, const Split& s, const Vocabulary& v, const Options& o,
                  std::int64_t beam, OnSignal on_signal) {
    Outputs out;
    out.texts.resize(s.examples.size());
    out.tokens.resize(s.examples.size());
    std::vector<std::size_t> order(s.examples.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return s.examples[a].src.size() < s.examples[b].src.size(); });
    const std::size_t chunk = beam == 1 ? 64 : 1;
    // Beam search takes one verse at a time, minutes for a wide beam: a bar says how far it is.
    std::unique_ptr<run::ProgressBar> bar;
    if (beam > 1) bar = std::make_unique<run::ProgressBar>(static_cast<std::int64_t>(order.size()), "verse");
    for (std::size_t at = 0; at < order.size(); at += chunk) {
        if (const int sig = run::stop_signal(); sig && on_signal == OnSignal::stop)
            throw run::Interrupted(sig, run::stop_message(sig));
        std::vector<std::size_t> ids(order.begin() + static_cast<std::ptrdiff_t>(at),
                                     order.begin() + static_cast<std::ptrdiff_t>(std::min(order.size(), at + chunk)));
        data::Seq2SeqBatch b = data::seq2seq_batch(s.examples, ids, v.symbols());
        Tensor mask = nn::padding_mask(b.src, v.pad());
        if (beam == 1) {
            models::Decoded d = models::greedy_decode(model, b.src, mask, o.context, v.start(), v.end());
            for (std::size_t r = 0; r < ids.size(); ++r) {
                std::vector<std::int64_t> tokens;
                for (std::int64_t t = 0; t < d.lengths[r]; ++t)
                    tokens.push_back(static_cast<std::int64_t>(d.tokens.at({static_cast<std::int64_t>(r), t})));
                out.tokens[ids[r]] = std::move(tokens);
            }
        } else {
            out.tokens[ids[0]] =
                models::beam_search(model, b.src, mask, o.context, v.start(), v.end(), beam, o.length_penalty).tokens;
        }
        for (std::size_t i : ids) out.texts[i] = text_of(out.tokens[i], v, out);
        if (bar) bar->update(static_cast<std::int64_t>(at + ids.size()), 1, fmt::format("beam {}", beam));
    }
    return out;
}

std::vector<std::string> targets_of(const Split& s) {
    std::vector<std::string> t;
    for (const data::VersePair& p : s.pairs) t.push_back(p.target);
    return t;
}

std::vector<std::string> sources_of(const Split& s) {
    std::vector<std::string> t;
    for (const data::VersePair& p : s.pairs) t.push_back(p.source);
    return t;
}

std::string scores(const std::vector<std::string>& hyps, const std::vector<std::string>& refs) {
    const data::BleuScore b = data::corpus_bleu(hyps, refs);
    const data::ChrfScore c = data::corpus_chrf(hyps, refs);
    return fmt::format("BLEU {:5.2f}  chrF {:5.2f}  ({:.1f}/{:.1f}/{:.1f}/{:.1f}, BP {:.3f}, ratio {:.3f})", b.score,
                       c.score, b.precisions[0], b.precisions[1], b.precisions[2], b.precisions[3], b.brevity_penalty,
                       b.ref_len > 0 ? static_cast<double>(b.hyp_len) / static_cast<double>(b.ref_len) : 0.0);
}

// The label-smoothed loss of a batch under teacher forcing (000 note i).
Tensor batch_loss(const models::Transformer& model, const data::Seq2SeqBatch& b,
                  const nn::LabelSmoothingLoss& criterion, std::int64_t pad) {
    Tensor out = model.forward(b.src, b.tgt_in, nn::padding_mask(b.src, pad), models::target_mask(b.tgt_in, pad));
    return criterion(model.generator->forward(out), b.tgt_out);
}

// The tokens a batch holds, source and target (the progress bar's rate).
std::int64_t tokens_of(const std::vector<data::TokenPair>& examples, const std::vector<std::size_t>& rows) {
    std::int64_t n = 0;
    for (std::size_t i : rows) n += static_cast<std::int64_t>(examples[i].src.size() + examples[i].tgt.size()) + 1;
    return n;
}

// Trains from step 0, or from the checkpoint --resume names, to the last step
// (run::TrainingLoop: it saves, resumes, stops on signals and shares the
// batches between the ranks of an mpirun job). The batches of an epoch come
// from the seed and the epoch alone (data/epoch_batches.h): a resumed run
// draws them again with nothing kept. Each epoch ends with greedy decoding of
// the validation verses, its BLEU the curve "bleu".
void train(models::Transformer& model, const Corpus& c, const Options& o, run::Run& r) {
    nn::optim::Adam opt(model.parameters(), {.lr = 0, .beta1 = 0.9, .beta2 = 0.98, .eps = 1e-9});
    const std::int64_t per_epoch = data::batches_per_epoch(c.train.examples, o.batch), steps = o.epochs * per_epoch;
    nn::WarmupSchedule warmup(o.model.d_model, o.warmup, 1.0);
    nn::LabelSmoothingLoss criterion(c.vocab.size(), c.vocab.pad(), o.smoothing);
    run::TrainingLoop loop(model, opt,
                           {.steps = steps,
                            .epoch_steps = per_epoch,
                            .unit = "tok",
                            .lr = [&](std::int64_t step) { return o.lr * warmup.lr(step); }},
                           r);
    loop.keep_text(kMergesKey, c.vocab.bpe.saved());  // --load and --resume rebuild the very vocabulary
    const std::vector<std::string> references = targets_of(c.validation);
    loop.evaluate = [&](std::int64_t epoch, std::int64_t step) {
        Outputs val = translate(model, c.validation, c.vocab, o, 1, OnSignal::finish);
        run::say("epoch {} validation ({} verses, greedy): {}\n", epoch, c.validation.pairs.size(),
                 scores(val.texts, references));
        const std::size_t k = c.validation.pairs.size() / 2;  // one verse, to watch it change from epoch to epoch
        run::say("  {}: {}\n  {}  model: {}\n", c.validation.pairs[k].ref, c.validation.pairs[k].target,
                 std::string(c.validation.pairs[k].ref.size(), ' '), val.texts[k]);
        loop.curve("bleu").emplace_back(static_cast<double>(step), data::corpus_bleu(val.texts, references).score);
    };
    if (task_named(o.task).copy_baseline)
        run::say("validation ({} verses), the source copied: {}\n", c.validation.pairs.size(),
                 scores(sources_of(c.validation), references));
    std::vector<std::vector<std::size_t>> batches;
    std::int64_t batches_epoch = 0;  // the epoch `batches` belongs to
    loop.run([&](std::int64_t step) {
        if (const std::int64_t epoch = loop.epoch_of(step); epoch != batches_epoch)
            batches = data::epoch_batches(c.train.examples, o.batch, o.seed, epoch), batches_epoch = epoch;
        const std::vector<std::size_t>& rows = batches[static_cast<std::size_t>((step - 1) % per_epoch)];
        const std::int64_t items = tokens_of(c.train.examples, rows);
        const auto [first, last] =
            loop.share(static_cast<std::int64_t>(rows.size()));  // this rank's verses of the batch
        if (first == last) return run::StepLoss{{}, 0, items};   // an epoch's short last batch leaves this rank none
        const data::Seq2SeqBatch b =
            data::seq2seq_batch(c.train.examples, std::vector<std::size_t>(rows.begin() + first, rows.begin() + last),
                                c.vocab.symbols());
        return run::StepLoss{batch_loss(model, b, criterion, c.vocab.pad()), b.tokens, items};
    });
    loop.finish({fmt::format("translate {}: loss and learning rate", o.task), "", "validation"}, "", o.figures);
}

// The cross-attention of one test verse the model translated itself: for each
// output subword (down), the weights p_{t,s} (002's p_{i,j} of "The Weighting Coefficients P", query t, key s) over the source
// subwords (across), one panel per layer and head; and the same weights as a page to
// explore in a browser.
void write_cross_attention(models::Transformer& model, const Corpus& c, const Options& o) {
    std::size_t pick = 0;  // the first test verse of 10 to 24 source subwords: a readable figure
    for (std::size_t i = 0; i < c.test.examples.size(); ++i)
        if (c.test.examples[i].src.size() >= 10 && c.test.examples[i].src.size() <= 24) {
            pick = i;
            break;
        }
    Split one;
    one.pairs = {c.test.pairs[pick]};
    one.examples = {c.test.examples[pick]};
    Outputs out = translate(model, one, c.vocab, o, 1, OnSignal::stop);
    data::Seq2SeqBatch b = data::seq2seq_batch(one.examples, {0}, c.vocab.symbols());
    const std::vector<std::int64_t>& y = out.tokens[0];
    Tensor tgt = zeros({1, static_cast<std::int64_t>(y.size())}, Dtype::int64);
    std::copy(y.begin(), y.end(), tgt.data<std::int64_t>());
    {
        NoGradGuard no_grad;
        nn::EvalGuard eval(model);
        model.forward(b.src, tgt, nn::padding_mask(b.src, c.vocab.pad()), models::target_mask(tgt, c.vocab.pad()));
    }
    std::vector<Tensor> cross;
    for (std::size_t l = 0; l < model.decoder->layers->size(); ++l)
        cross.push_back((*model.decoder->layers)[l].src_attn->last_attention());
    std::vector<std::string> queries, keys;
    for (std::int64_t id : y) queries.push_back(run::subword_label(c.vocab.token(id)));
    for (std::int64_t id : one.examples[0].src) keys.push_back(run::subword_label(c.vocab.token(id)));
    const std::string title = fmt::format("Cross-attention of {} ({})", one.pairs[0].ref, o.task);
    plot::Figure f = run::attention_grid(title, cross, queries, keys);
    for (plot::Panel& panel : f.panels) {
        auto& m = std::get<plot::HeatMap>(panel);
        m.x_label = "source subword (KJV)";
        m.y_label = "output subword (the model's)";
    }
    run::say("{} ({}): {}\n  translated: {}\n", one.pairs[0].ref, o.task, one.pairs[0].source, out.texts[0]);
    for (const std::string& path : run::write_figure(o.figures + "/cross_attention", f)) run::say("  {}\n", path);
    run::say("  {}\n", run::write_attention_page(o.figures + "/cross_attention.html",
                                                 {title,
                                                  {run::attention_kind("cross-attention (output subwords attend to "
                                                                       "the KJV's subwords)",
                                                                       cross, queries, keys)}}));
}

void evaluate(models::Transformer& model, const Corpus& c, const Options& o) {
    const Task& task = task_named(o.task);
    Outputs test;
    run::timed(o.beam == 1 ? "test verses translated (greedy, KV cache)" : "test verses translated (beam search)",
               [&] { test = translate(model, c.test, c.vocab, o, o.beam, OnSignal::stop); });
    const std::vector<std::string> refs = targets_of(c.test);
    for (std::int64_t i = 0; i < o.show && i < static_cast<std::int64_t>(test.texts.size()); ++i) {
        const auto k = static_cast<std::size_t>(i) * c.test.pairs.size() /
                       static_cast<std::size_t>(std::max<std::int64_t>(o.show, 1));
        run::say("  {}\n    source:    {}\n    reference: {}\n    model:     {}\n", c.test.pairs[k].ref,
                 c.test.pairs[k].source, c.test.pairs[k].target, test.texts[k]);
    }
    if (test.dropped_symbols + test.replaced_bytes > 0)
        run::say(
            "in the outputs: {} start or padding symbols dropped, {} bytes that were not UTF-8 replaced by U+FFFD\n",
            test.dropped_symbols, test.replaced_bytes);
    run::say("test books (Esther, Jonah, James; {} verses), {}:\n", c.test.pairs.size(),
             o.beam == 1 ? std::string("greedy")
                         : fmt::format("beam {} (length penalty {})", o.beam, o.length_penalty));
    run::say("  model              {}\n", scores(test.texts, refs));
    if (task.copy_baseline) run::say("  copy the source    {}\n", scores(sources_of(c.test), refs));
}

// The flags, in the groups a checkpoint records (run/flags/flag_groups.h). The
// preset, applied first, sets the defaults the other flags override.
// --eval-verses chooses the verses each epoch validates on, so the curve
// "bleu" a checkpoint carries: --resume compares it.
void add_flags(run::Flags& f, Options& o) {
    run::FlagGroup model = f.group("Model", run::Recorded::model);
    std::vector<std::string> names;
    for (const Task& t : kTasks) names.push_back(t.name);
    model
        .add("--task", o.task,
             "kjv-web (King James Version -> World English Bible) or kjv-sparv (-> Reina-Valera 1909)")
        ->check(CLI::IsMember(names));
    model.add("--vocab", o.vocab, "byte-level BPE vocabulary, the 256 bytes included")->check(CLI::Range(256, 100000));
    model.add("--context", o.context, "longest source in subwords (longer ones are truncated, and counted)")
        ->check(CLI::Range(4, 4096));
    run::add_model_flags(model, o.model, {.help = "N, layers in each stack"});

    run::FlagGroup training = f.group("Training", run::Recorded::training);
    training.add("--batch", o.batch, "verse pairs per batch")->check(CLI::Range(1, 100000));
    training.add("--epochs", o.epochs, "epochs over the training verses")->check(CLI::Range(1, 100000));
    training.add("--train-limit", o.train_limit, "train on this many verses spread over the Bible (0: all)")
        ->check(CLI::Range(0, 1000000));
    training
        .add("--lr", o.lr, "the warmup schedule's factor (001: lr = factor * d_model^-0.5 * min(s^-0.5, s w^-1.5))")
        ->check(run::finite_positive());
    training.add("--warmup", o.warmup, "warmup steps of the schedule")->check(CLI::Range(1, 100000000));
    training.add("--smoothing", o.smoothing, "label smoothing")->check(run::finite_range(0.0, 0.99));
    training.add("--eval-verses", o.eval_verses, "validation verses translated each epoch (0: all)")
        ->check(CLI::Range(0, 1000000));
    f.group("Run", run::Recorded::run)
        .add("--seed", o.seed, "seed of initialisation, dropout and batch order")
        ->check(run::seed_value());

    run::FlagGroup test = f.group("Test and output", run::Recorded::none);
    test.add("--beam", o.beam, "beam width for the test verses (1: greedy decoding)")->check(CLI::Range(1, 64));
    test.add("--length-penalty", o.length_penalty, "beam search's alpha in lp = ((5 + n) / 6)^alpha")
        ->check(run::finite_range(0.0, 5.0));
    test.add("--show", o.show, "test translations to print")->check(CLI::Range(0, 100));
    test.add("--figures", o.figures,
             "draw the loss curve and the cross-attention of a translated test verse into this folder (PNG and SVG, "
             "and as a page to explore in a browser, cross_attention.html)")
        ->check(run::path_value());
}

run::MemoryEstimate memory_estimate(const Options& o, bool training) {
    const auto N = static_cast<double>(o.model.layers), D = static_cast<double>(o.model.d_model),
               F = static_cast<double>(o.model.d_ff), V = static_cast<double>(o.vocab + 3),
               T = static_cast<double>(o.context), H = static_cast<double>(o.model.heads);
    const double B = training ? static_cast<double>(o.batch) : 64;
    run::MemoryEstimate e;
    e.parameters = model_config(o, o.vocab + 3).parameter_count();
    e.activations = run::transformer_activations(N, B, T, D, F, H, T) +
                    run::transformer_activations(1.5 * N, B, T, D, F, H, T) + 3 * B * T * V;
    return e;
}

// The checkpoint --load or --resume names holds the BPE merges its model was
// trained with, as data::TextTokens::saved() writes them.
void check_saved_merges(const run::Run& r) {
    const nn::RunRecord& saved = r.saved();
    const bool resume = !r.checkpoint.resume.empty();
    const std::string& path = resume ? r.checkpoint.resume : r.checkpoint.load;
    if (path.empty() || saved.text.count(kMergesKey) > 0) return;
    throw CLI::ValidationError(resume ? "--resume" : "--load",
                               saved.tensors.count("bpe.merges") > 0
                                   ? fmt::format("{} was saved by an older version of translate (its BPE merges in a "
                                                 "tensor): train it again",
                                                 path)
                                   : fmt::format("{} holds no BPE merges", path));
}

// What no single flag's check can see, before any work starts: the
// checkpoint's merges, flags that must agree, the SWORD modules, output
// paths, the batch shared by the processes, and the memory.
void check_flags(const run::Run& r, const Options& o) {
    check_saved_merges(r);
    run::check_model_flags(o.model);
    run::require_batch_per_rank("--batch", o.batch);
    const Task& task = task_named(o.task);
    for (const std::string& module : {task.source_module, task.target_module})
        if (!data::sword_module_installed(module))
            throw CLI::ValidationError("--task", fmt::format("the SWORD module {} is not installed: apt-get install {}",
                                                             module, data::debian_package_of(module)));
    run::check_run_outputs(r.checkpoint.save, "", o.figures);
    run::require_memory("--batch", memory_estimate(o, r.training()), r.training());
}

// Trains (or loads), then translates the test books and draws the figures asked for.
int work(run::Run& r, const Options& o) {
    Corpus corpus = load_corpus(o, r.saved());
    auto model = models::make_transformer(model_config(o, corpus.vocab.size()));
    r.announce(
        fmt::format("Transformer N={} d_model={} d_ff={} h={} dropout {}, shared embeddings, {} parameters | "
                    "vocabulary {} (BPE {} + <pad> <s> </s>), context {} | batch {}, {} epochs x {} batches, "
                    "Adam, warmup {} (lr {}), smoothing {}",
                    o.model.layers, o.model.d_model, o.model.d_ff, o.model.heads, o.model.dropout,
                    model->parameter_count(), corpus.vocab.size(), corpus.vocab.bpe.size(), o.context, o.batch,
                    o.epochs, data::batches_per_epoch(corpus.train.examples, o.batch), o.warmup, o.lr, o.smoothing));
    nn::RunRecord record = r.record();  // what --load writes to --save: the model's flags and its merges
    record.text[kMergesKey] = corpus.vocab.bpe.saved();
    r.train_or_load(
        *model, [&] { train(*model, corpus, o, r); }, record);
    if (!r.is_root()) return 0;  // rank 0 alone evaluates (after training, every rank holds its model)
    evaluate(*model, corpus, o);
    if (!o.figures.empty()) write_cross_attention(*model, corpus, o);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    return run::main(
        argc, argv,
        {.name = "translate",
         .about = "Train an encoder-decoder Transformer to translate Bible verses (SWORD modules), scored with BLEU "
                  "and chrF.",
         .saves = "the model, its BPE merges, Adam's state, the curves",
         .presets = {.names = {"default", "quick"},
                     .help = "default (every training verse, 4 epochs) or quick (a small model on 320 training verses "
                             "for 2 epochs: the test suite's run, seconds)",
                     .apply = [&](const std::string& preset) { apply_preset(o, preset); }},
         .seed = &o.seed,
         .flags = [&](run::Flags& f) { add_flags(f, o); },
         .check = [&](run::Run& r) { check_flags(r, o); },
         .work = [&](run::Run& r) { return work(r, o); }});
}
