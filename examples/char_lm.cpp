// A character-level GPT (002 "The Big Picture and Takeaways", its Decoders: auto-regressively
// sample the next token; nanoGPT's shakespeare_char, on another corpus): trains on a UTF-8
// text, reports the validation loss in nats per character and the perplexity
// each epoch, and samples text after each epoch and at the end.
//   ./build/examples/char_lm                         the fortunes corpus (a few minutes on 2 cores)
//   ./build/examples/char_lm --text FILE             any UTF-8 text
//   ./build/examples/char_lm --load m.ckpt --prompt "Life is"   continue a text with a trained model
//   ./build/examples/char_lm --help                  every flag
// Tokens are the text's own characters (Unicode code points, vocabulary = the
// distinct ones, in code-point order), or with --tokens subwords byte-level BPE
// subwords whose merges are learnt from the training part of the text
// (data/train_bpe.h); a checkpoint keeps that alphabet or those merges and the
// model flags, so --load needs neither.
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "lectern/autograd/autograd.h"
#include "lectern/data/char_vocab.h"
#include "lectern/data/fortunes.h"
#include "lectern/data/text_batch.h"
#include "lectern/data/text_file.h"
#include "lectern/data/text_tokens.h"
#include "lectern/data/utf8.h"
#include "lectern/models/generate.h"
#include "lectern/models/gpt.h"
#include "lectern/nn/loss.h"
#include "lectern/nn/lr_schedule.h"
#include "lectern/nn/optim/adamw.h"
#include "lectern/nn/optim/param_groups.h"
#include "lectern/run/figures/attention_figures.h"
#include "lectern/run/figures/attention_pages.h"
#include "lectern/run/shell/console.h"
#include "lectern/run/flags/adamw_flags.h"
#include "lectern/run/shell/data_parallel_run.h"
#include "lectern/run/figures/expert_routing_figure.h"
#include "lectern/run/figures/figure_files.h"
#include "lectern/run/flags/flags.h"
#include "lectern/run/shell/interruption.h"
#include "lectern/run/training/learn_subwords.h"
#include "lectern/run/shell/memory_budget.h"
#include "lectern/run/flags/model_flags.h"
#include "lectern/run/shell/output_files.h"
#include "lectern/run/shell/program.h"
#include "lectern/run/shell/streamed_text.h"
#include "lectern/run/training/training_loop.h"

using namespace autograd;

namespace {

const char* kFortunesDir = "/usr/share/games/fortunes";

struct Options {
    std::string text;                   // empty: the fortunes corpus
    std::string tokens = "characters";  // or "subwords"
    std::int64_t bpe_vocab = 512;       // subwords: the 256 bytes and the merges learnt
    std::int64_t context = 64;
    run::ModelFlags model{.layers = 4, .d_model = 128, .heads = 4, .d_ff = 512, .dropout = 0.0};
    std::string positions = "learned";
    bool untie = false;
    std::int64_t block = 0, experts = 0, top_k_experts = 2;
    double aux = 0.01;
    // 1.2M training characters: 6 x 200 steps of 16 windows of 64. Many small
    // steps learn faster per character than fewer large ones (measured: 1.94
    // nats/char against 2.03 for 32 windows and 2.27 for context 128, 16 windows).
    std::int64_t batch = 16, epochs = 6, steps = 200;
    run::AdamWFlags adamw{.lr = 3e-3, .weight_decay = 0.1, .clip = 1.0};
    double val_fraction = 0.1;
    std::int64_t val_windows = 128;
    std::uint64_t seed = 1;
    std::string prompt;
    double temperature = 0.8;
    std::int64_t top_k = 0, sample_chars = 300;
    std::string csv, figures;
    std::int64_t max_text_bytes = std::int64_t{1} << 30;
};

struct Corpus {
    std::unique_ptr<data::TextTokens> tokens;
    data::TokenIds ids{0};
    std::size_t cut = 0;  // where validation begins
    data::TokenSpan train() const { return {&ids, 0, cut}; }
    data::TokenSpan val() const { return {&ids, cut, ids.size()}; }
    std::string start;           // what a sample is conditioned on before the prompt (UTF-8)
    std::int64_t stop = -1;      // the token that ends a sample (fortunes: '%', the entry separator)
    double chars_per_token = 1;  // over the validation part: 1 for characters, several for subwords
    std::string name;
    std::string digest;  // the text's size and checksum: a resumed run must read the same text
};

// Where the validation part begins: the first entry (or line) boundary after
// (1 - val_fraction) of the text with text after it, so the last entries are held out
// whole; (1 - val_fraction) itself when no such boundary follows (the line break that
// ends a file holds nothing out).
std::size_t validation_start(const Corpus& c, double val_fraction, bool fortunes) {
    const std::size_t n = c.ids.size();
    auto cut = static_cast<std::size_t>(static_cast<double>(n) * (1 - val_fraction));
    const std::string boundary = fortunes ? "\n%\n" : "\n";
    if (!c.tokens->can_encode(boundary)) return cut;
    std::vector<std::int64_t> b = c.tokens->encode(boundary);
    for (std::size_t i = cut; i + b.size() < n; ++i) {
        std::size_t k = 0;
        while (k < b.size() && c.ids[i + k] == b[k]) ++k;
        if (k == b.size()) return i + b.size() - (fortunes ? 2 : 0);  // after "\n" (fortunes: before "%\n")
    }
    return cut;
}

// The tokens of a text: the checkpoint's, if it has them; else its alphabet, or
// merges learnt from the part before (1 - val_fraction) of it, which holds the
// training part (the split moves to the next boundary after that point).
data::TextTokens text_tokens(const Options& o, const std::string& bytes, const nn::RunRecord& saved) {
    if (auto it = saved.text.find("bpe_merges"); it != saved.text.end())
        return data::TextTokens::from_saved(true, it->second);
    if (auto it = saved.text.find("alphabet"); it != saved.text.end())
        return data::TextTokens::from_saved(false, it->second);
    if (o.tokens == "characters") return data::TextTokens::characters(data::CharVocab::of_utf8(bytes));
    auto head = static_cast<std::size_t>(static_cast<double>(bytes.size()) * (1 - o.val_fraction));
    while (head > 0 && head < bytes.size() && (static_cast<unsigned char>(bytes[head]) & 0xC0) == 0x80)
        --head;  // a whole character
    return data::TextTokens::subwords(run::learn_subwords(std::string_view(bytes).substr(0, head), o.bpe_vocab,
                                                          "--bpe-vocab", fmt::format("the first {} bytes", head)));
}

// The text, its tokens, and the train/validation split.
Corpus load_corpus(const Options& o, const nn::RunRecord& saved, const std::string& resumed) {
    Corpus c;
    bool fortunes = o.text.empty();
    c.name = fortunes ? fmt::format("fortunes ({} files of {})", data::kFortuneFiles.size(), kFortunesDir) : o.text;
    try {
        std::string bytes = fortunes ? data::read_fortunes(kFortunesDir)
                                     : data::read_text_file(o.text, static_cast<std::size_t>(o.max_text_bytes));
        c.digest = fmt::format("{} bytes, CRC-32 {:08x}", bytes.size(),
                               crc32_z(0L, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()));
        if (auto was = saved.text.find("corpus"); !resumed.empty() && was != saved.text.end() &&
                                                  was->second != c.digest)  // a resumed run reads the text it began on
            throw std::runtime_error(fmt::format("{} was trained on a text of {}; {} has {}: resume on the same text",
                                                 resumed, was->second, c.name, c.digest));
        c.tokens = std::make_unique<data::TextTokens>(text_tokens(o, bytes, saved));
        try {
            c.ids = c.tokens->encode_text(bytes);
        } catch (const data::DatasetError& e) {  // only a saved alphabet can lack a character of the text
            throw data::DatasetError(
                fmt::format("{}, the checkpoint's alphabet of {}: the model was trained on "
                            "another text",
                            e.what(), c.tokens->size()));
        }
    } catch (const data::DatasetError& e) {
        if (std::string_view(e.what()).starts_with(c.name)) throw;
        throw data::DatasetError(fmt::format("{}: {}", c.name, e.what()));
    }
    c.cut = validation_start(c, o.val_fraction, fortunes);
    // A sample begins as a new entry or a new line does, or, in a text without
    // newlines, after the text's first character.
    c.start = fortunes                     ? "%\n"
              : c.tokens->can_encode("\n") ? "\n"
              : c.ids.size() > 0           ? c.tokens->decode({c.ids[0]})
                                           : "";
    if (fortunes) c.stop = c.tokens->encode("%")[0];  // a piece of its own: one token in either kind
    if (c.tokens->is_subwords() && c.val().size() > 0) {
        std::vector<std::int64_t> val(static_cast<std::size_t>(c.val().size()));
        for (std::size_t i = 0; i < val.size(); ++i) val[i] = c.val()[i];
        std::int64_t chars = 0;
        for (unsigned char b : c.tokens->decode(val)) chars += (b & 0xC0) != 0x80;  // UTF-8 lead bytes
        c.chars_per_token = static_cast<double>(chars) / static_cast<double>(val.size());
    }
    return c;
}

models::GPTConfig model_config(const Options& o, std::int64_t vocab) {
    models::GPTConfig c;
    c.vocab = vocab, c.context = o.context, c.d_model = o.model.d_model, c.n_layers = o.model.layers;
    c.heads = o.model.heads, c.d_ff = o.model.d_ff, c.dropout = o.model.dropout, c.tie_weights = !o.untie;
    c.positions = nn::parse_positions(o.positions);
    c.block = o.block, c.experts = o.experts, c.top_k = o.top_k_experts, c.seed = o.seed;
    return c;
}

// Mean next-token cross-entropy (nats per token: per character, or per subword)
// over non-overlapping windows of the validation text (at most o.val_windows of
// them), in eval mode.
double validation_loss(const models::GPT& model, const Corpus& c, const Options& o) {
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    const auto n = static_cast<std::int64_t>(c.val().size());
    std::vector<std::int64_t> starts;
    for (std::int64_t s = 0; s + o.context + 1 <= n && static_cast<std::int64_t>(starts.size()) < o.val_windows;
         s += o.context)
        starts.push_back(s);
    double total = 0;
    std::int64_t counted = 0;
    for (std::size_t i = 0; i < starts.size(); i += static_cast<std::size_t>(o.batch)) {
        std::vector<std::int64_t> chunk(starts.begin() + static_cast<std::ptrdiff_t>(i),
                                        starts.begin() +
                                            static_cast<std::ptrdiff_t>(
                                                std::min(starts.size(), i + static_cast<std::size_t>(o.batch))));
        data::TextBatch b = data::text_batch(c.val(), chunk, o.context);
        total += cross_entropy(model.forward(b.inputs), b.targets).item() * static_cast<double>(b.targets.numel());
        counted += b.targets.numel();
    }
    return total / static_cast<double>(counted);
}

// The validation loss as a student compares it: per character, whatever the
// tokens (a subword's loss spread over the characters it holds, on average).
std::string loss_text(const Corpus& c, double val) {
    if (!c.tokens->is_subwords()) return fmt::format("{:.3f} nats/char, perplexity {:.2f}", val, std::exp(val));
    return fmt::format(
        "{:.3f} nats/subword = {:.3f} nats/char ({:.2f} characters a subword), perplexity {:.2f} per subword", val,
        val / c.chars_per_token, c.chars_per_token, std::exp(val));
}

struct Sample {
    std::vector<std::int64_t> tokens;  // what the model was given, then what it drew
    std::size_t prompt_length;
    double seconds;
};

// Draws a sample with the KV cache and prints it under `title` as it is drawn;
// a stop signal (Ctrl-C) ends it there, and what was printed stays.
Sample sample(const models::GPT& model, const Corpus& c, const Options& o, std::uint64_t seed,
              const std::string& title) {
    Sample s{c.tokens->encode(c.start + o.prompt), 0, 0};
    s.prompt_length = s.tokens.size();
    run::StreamedText text;
    models::SamplingOptions so{.max_new_tokens = o.sample_chars,
                               .temperature = o.temperature,
                               .top_k = o.top_k,
                               .end_token = c.stop,
                               .use_cache = true,
                               .on_token = [&](std::int64_t token) {
                                   if (token != c.stop)
                                       text.add(c.tokens->decode({token}));  // not the separator that ends it
                                   return run::stop_signal() == 0;
                               }};
    Generator gen(seed);
    run::say("--- {} ---\n", title);
    text.add(o.prompt);
    auto start = std::chrono::steady_clock::now();
    std::vector<std::int64_t> out = models::generate(model, s.tokens, so, gen);
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    text.finish();
    run::say("\n---\n");
    s.tokens.insert(s.tokens.end(), out.begin(), out.end());
    return s;
}

// Each expert's share of this step's token-to-expert assignments, over every MoE layer.
std::vector<double> routing_shares(const models::GPT& model, std::int64_t experts) {
    std::vector<double> counts(static_cast<std::size_t>(experts), 0);
    double total = 0;
    for (const auto& block : *model.blocks) {
        if (!block->moe) continue;
        const Tensor chosen = block->moe->last_routing().experts;  // int64 [N, k]
        for (std::int64_t i = 0; i < chosen.numel(); ++i)
            counts[static_cast<std::size_t>(chosen.data<std::int64_t>()[i])] += 1;
        total += static_cast<double>(chosen.numel());
    }
    for (double& c : counts) c = total > 0 ? c / total : 0.0;
    return counts;
}

// What each layer and head attends to over the first characters of the
// validation text (at most 24, and one block under --block):
// DIR/attention.{png,svg}, the characters themselves as tick labels, and the
// same weights as a page to explore in a browser, DIR/attention.html.
void write_attention_figure(const models::GPT& model, const Corpus& c, const Options& o) {
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    const std::int64_t T = std::min<std::int64_t>({24, o.context, o.block > 0 ? o.block : o.context});
    data::TextBatch b = data::text_batch(c.val(), {0}, T);
    model.forward(b.inputs);  // fills each block's attention weights
    std::vector<std::string> chars;
    for (std::int64_t t = 0; t < T; ++t)
        chars.push_back(c.tokens->label(static_cast<std::int64_t>(b.inputs.at({0, t}))));
    std::vector<Tensor> layers;
    for (std::size_t l = 0; l < model.blocks->size(); ++l)  // [1, H, T, T]; under --block, the first block's
        layers.push_back(narrow((*model.blocks)[l].attn->last_attention(), 0, 0, 1));
    const std::string title = "char_lm: causal self-attention over the start of the validation text";
    const auto paths =
        run::write_figure(o.figures + "/attention", run::attention_grid(title, layers, chars, chars, true));
    const std::string page = run::write_attention_page(
        o.figures + "/attention.html",
        {title,
         {run::attention_kind("causal self-attention (each character attends to itself and earlier ones)", layers,
                              chars, chars)}});
    run::say("attention drawn in {} and {}, to explore in a browser in {}\n", paths[0], paths[1], page);
}

// Trains from step 0, or from the checkpoint --resume names, to the last step
// (run::TrainingLoop: it saves, resumes, stops on signals and shares the
// windows between the ranks of an mpirun job); after each epoch, the
// validation loss and a sample.
void train(models::GPT& model, const Corpus& c, const Options& o, run::Run& r) {
    using Clock = std::chrono::steady_clock;
    const run::AdamWFlags& a = o.adamw;
    nn::optim::AdamW opt(nn::optim::weight_decay_groups(model, a.weight_decay),
                         {.lr = a.lr, .beta1 = 0.9, .beta2 = 0.95});
    const std::int64_t total = o.epochs * o.steps;
    nn::WarmupCosineSchedule schedule(a.lr, std::min<std::int64_t>({50, total / 10 + 1, total - 1}), total, a.lr / 10);
    run::TrainingLoop loop(model, opt,
                           {.steps = total,
                            .epoch_steps = o.steps,
                            .unit = "tok",
                            .lr = [&](std::int64_t step) { return schedule.lr(step); },
                            .clip = a.clip},
                           r);
    Generator windows(o.seed);
    loop.keep("windows", windows);
    loop.keep_text(c.tokens->is_subwords() ? "bpe_merges" : "alphabet", c.tokens->saved());
    loop.keep_text("corpus", c.digest);  // the ranks must read one text, and a resumed run the same (load_corpus)
    if (o.experts > 0)
        loop.after_step = [&](std::int64_t step) {  // this rank's share of the batch (rank 0's is saved)
            const std::vector<double> shares = routing_shares(model, o.experts);
            for (std::size_t e = 0; e < shares.size(); ++e)
                loop.curve(fmt::format("expert.{}", e)).emplace_back(static_cast<double>(step), shares[e]);
        };
    std::optional<Clock::time_point> epoch_start;  // training time excludes validation, sampling and saving
    double train_seconds = 0;
    std::int64_t train_tokens = 0;
    loop.evaluate = [&](std::int64_t epoch, std::int64_t step) {
        train_seconds += std::chrono::duration<double>(Clock::now() - *epoch_start).count();
        epoch_start.reset();
        const double val = validation_loss(model, c, o);
        run::say("epoch {} validation loss {}  (training {:.0f} tok/s)\n", epoch, loss_text(c, val),
                 static_cast<double>(train_tokens) / train_seconds);
        loop.curve("val").emplace_back(static_cast<double>(step), val);
        const std::uint64_t seed = o.seed + static_cast<std::uint64_t>(epoch);
        sample(model, c, o, seed,
               fmt::format("sample after epoch {} (temperature {}, seed {})", epoch, o.temperature, seed));
    };
    const auto last_start = static_cast<std::int64_t>(c.train().size()) - o.context - 1;
    const auto [first, last] = loop.share(o.batch);  // this rank's windows of every batch
    loop.run([&](std::int64_t) {
        if (!epoch_start) epoch_start = Clock::now();
        std::vector<std::int64_t> starts(static_cast<std::size_t>(o.batch));
        for (auto& s : starts) s = windows.randint(last_start + 1);  // random windows, the same on every rank
        starts = std::vector<std::int64_t>(starts.begin() + first, starts.begin() + last);
        data::TextBatch b = data::text_batch(c.train(), starts, o.context);
        Tensor ce = cross_entropy(model.forward(b.inputs), b.targets);     // the mean over this rank's tokens
        Tensor loss = o.experts > 0 ? ce + model.aux_loss() * o.aux : ce;  // + the load-balancing term
        train_tokens += o.batch * o.context;
        return run::StepLoss{loss, b.targets.numel(), o.batch * o.context, ce};  // the curve shows the cross-entropy
    });
    loop.finish({"char_lm: loss and learning rate", "val", "validation loss"}, o.csv, o.figures);
    if (!loop.communicator().is_root() || o.figures.empty() || o.experts == 0) return;
    std::vector<run::Curve> routed;
    for (std::int64_t e = 0; e < o.experts; ++e) routed.push_back(loop.curve(fmt::format("expert.{}", e)));
    run::write_expert_routing(o.figures,
                              fmt::format("char_lm: routing to {} experts, top-{}, aux {}", o.experts, o.top_k_experts,
                                          o.aux),
                              routed);
}

// The flags, in the groups a checkpoint records (run/flags/flag_groups.h). The
// text, its split and the validation windows make the run's curves, and the
// sampling flags its samples after each epoch: --resume compares them.
// --max-text-bytes only refuses a text, and the text read is checked against
// the saved one's digest on resume.
void add_flags(run::Flags& f, Options& o) {
    run::FlagGroup model = f.group("Model", run::Recorded::model);
    model
        .add("--tokens", o.tokens,
             "characters (the text's alphabet) or subwords (byte-level BPE merges learnt from the training part)")
        ->check(CLI::IsMember({"characters", "subwords"}));
    model.add("--bpe-vocab", o.bpe_vocab, "subwords: the vocabulary, the 256 bytes and the merges learnt")
        ->check(CLI::Range(257, 65536));
    model.add("--context", o.context, "T, tokens the model sees (the positions' table)")->check(CLI::Range(2, 8192));
    run::add_model_flags(model, o.model, {.help = "N, blocks"});
    f.app().get_option("--d-ff")->description("MLP width (each expert's, with --experts)");
    model
        .add("--positions", o.positions,
             "learned, sinusoidal, binary (004 §15.5.3), concatenated (the sinusoid beside the embeddings; needs "
             "--untie) or none")
        ->check(CLI::IsMember({"learned", "sinusoidal", "binary", "concatenated", "none"}));
    model.flag("--untie", o.untie, "an output projection of its own instead of the token embedding's transpose");
    model.add("--block", o.block, "block-local attention over blocks of L tokens (004 §15.6.1); 0: full")
        ->check(CLI::Range(0, 8192));
    model.add("--experts", o.experts, "a mixture of E expert MLPs in every block (004 §15.5.7); 0: one MLP")
        ->check(CLI::Range(0, 256));
    model.add("--top-k-experts", o.top_k_experts, "experts per token")->check(CLI::Range(1, 256));

    run::FlagGroup training = f.group("Training", run::Recorded::training);
    training.add("--aux", o.aux, "coefficient of the MoE load-balancing loss")->check(run::finite_range(0.0, 100.0));
    training.add("--batch", o.batch, "windows per batch")->check(CLI::Range(1, 100000));
    training.add("--epochs", o.epochs, "epochs (each --steps batches, then validation and a sample)")
        ->check(CLI::Range(1, 100000));
    training.add("--steps", o.steps, "batches per epoch")->check(CLI::Range(1, 10000000));
    run::add_adamw_flags(training, o.adamw, "peak learning rate (AdamW; warmup, then cosine to a tenth)");

    run::FlagGroup data = f.group("Data", run::Recorded::run);
    data.add("--text", o.text, "a UTF-8 text file to train on (default: Debian's fortunes, /usr/share/games/fortunes)")
        ->check(CLI::ExistingFile)
        ->check(run::text_file_value());
    f.group("Data", run::Recorded::none)
        .add("--max-text-bytes", o.max_text_bytes, "refuse a --text larger than this")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
    data.add("--val-fraction", o.val_fraction, "the text's last part held out for validation")
        ->check(run::finite_range(0.01, 0.5));
    data.add("--val-windows", o.val_windows, "validation windows of --context tokens, at most")
        ->check(CLI::Range(1, 10000000));
    data.add("--seed", o.seed, "seed of initialisation, batches and samples")->check(run::seed_value());

    run::FlagGroup sampling = f.group("Sampling", run::Recorded::run);
    sampling.add("--prompt", o.prompt, "text the samples continue (default: a new entry / a new line)");
    sampling.add("--temperature", o.temperature, "sampling temperature; 0: greedy")
        ->check(run::finite_range(0.0, 100.0));
    sampling.add("--top-k", o.top_k, "sample among the k most probable tokens; 0: all")->check(CLI::Range(0, 100000));
    sampling.add("--sample-chars", o.sample_chars, "tokens (characters or subwords) per sample, at most")
        ->check(CLI::Range(1, 1000000));

    run::FlagGroup output = f.group("Output", run::Recorded::none);
    output
        .add("--csv", o.csv,
             "write the curves here (step,loss,lr,val: the validation loss per token after each epoch; with "
             "--experts, expert.0 ...: each expert's share of the routing)")
        ->check(run::path_value());
    output
        .add("--figures", o.figures,
             "draw the loss curve and the attention over the start of the validation text into this folder (PNG "
             "and SVG, and the attention as a page to explore in a browser, attention.html)")
        ->check(run::path_value());
}

// The bytes a run holds: AdamW's training step (an evaluation batch is no larger).
run::MemoryEstimate memory_estimate(const Options& o) {
    const double T = static_cast<double>(o.context), D = static_cast<double>(o.model.d_model),
                 F = static_cast<double>(o.model.d_ff) *
                     static_cast<double>(std::max<std::int64_t>(o.top_k_experts, 1)),
                 N = static_cast<double>(o.model.layers), H = static_cast<double>(o.model.heads),
                 B = static_cast<double>(o.batch),
                 V = o.tokens == "subwords" ? static_cast<double>(o.bpe_vocab) : 256;  // 256: a typical alphabet
    run::MemoryEstimate e;
    e.parameters = model_config(o, static_cast<std::int64_t>(V)).parameter_count();
    e.activations =
        run::transformer_activations(N, B, T, D, F, H, o.block > 0 ? static_cast<double>(o.block) : T) + 3 * B * T * V;
    return e;
}

// What no single flag's check can see, before any work starts: flags that must
// agree, output paths that can be written and destroy no input, and the memory.
void check_flags(const run::Run& r, const Options& o) {
    run::register_input(o.text);
    run::check_model_flags(o.model);
    run::check_positions_flag(o.positions, o.model);
    if (o.positions == "concatenated" && !o.untie)
        throw CLI::ValidationError("--positions",
                                   "concatenated makes the token embedding narrower than --d-model, so the "
                                   "output layer cannot be its transpose: add --untie");
    run::require_batch_per_rank("--batch", o.batch);
    if (o.experts > 0 && o.top_k_experts > o.experts)
        throw CLI::ValidationError("--top-k-experts", "must be at most --experts");
    if (o.block > o.context)
        throw CLI::ValidationError("--block", fmt::format("{} is longer than --context {}: blocks are parts of the "
                                                          "context",
                                                          o.block, o.context));
    try {
        data::decode_utf8(o.prompt);
    } catch (const data::DatasetError&) {
        throw CLI::ValidationError("--prompt", "is not valid UTF-8");
    }
    run::check_run_outputs(r.checkpoint.save, o.csv, o.figures);
    run::require_memory("--batch", memory_estimate(o), r.training());
}

// Reads the text, trains (or loads), saves, reports validation loss and samples.
int work(run::Run& r, const Options& o) {
    Corpus corpus = load_corpus(o, r.saved(), r.checkpoint.resume);
    if (static_cast<std::int64_t>(corpus.train().size()) < o.context + 1 ||
        static_cast<std::int64_t>(corpus.val().size()) < o.context + 1)
        throw data::DatasetError(
            fmt::format("{}: {} training and {} validation characters; both need more than "
                        "--context {}",
                        corpus.name, corpus.train().size(), corpus.val().size(), o.context));
    for (char32_t ch : data::decode_utf8(o.prompt))
        if (!corpus.tokens->can_encode(data::encode_utf8(std::u32string(1, ch)))) {
            fmt::print(stderr, "char_lm: --prompt: {} does not occur in the text, so the model has no token for it\n",
                       data::describe_char(ch));
            return 2;
        }
    auto model = models::make_gpt(model_config(o, corpus.tokens->size()));
    run::say("char LM on {}: {} {} ({} train, {} validation), {} of {}\n", corpus.name,
             corpus.train().size() + corpus.val().size(), corpus.tokens->is_subwords() ? "subwords" : "characters",
             corpus.train().size(), corpus.val().size(), corpus.tokens->is_subwords() ? "a vocabulary" : "an alphabet",
             corpus.tokens->size());
    r.announce(
        fmt::format("GPT N={} d_model={} h={} d_ff={} context {} {} positions{}{}{}, {} parameters | batch {}, {} "
                    "epochs x {} steps, AdamW lr {}",
                    o.model.layers, o.model.d_model, o.model.heads, o.model.d_ff, o.context, o.positions,
                    o.untie ? "" : ", tied output", o.block > 0 ? fmt::format(", block-local L={}", o.block) : "",
                    o.experts > 0 ? fmt::format(", MoE {} experts top-{}", o.experts, o.top_k_experts) : "",
                    model->parameter_count(), o.batch, o.epochs, o.steps, o.adamw.lr));
    nn::RunRecord record = r.record();  // what --load writes to --save: the model's flags and its tokens
    record.text[corpus.tokens->is_subwords() ? "bpe_merges" : "alphabet"] = corpus.tokens->saved();
    r.train_or_load(
        *model, [&] { train(*model, corpus, o, r); }, record);
    if (!r.is_root()) return 0;  // rank 0 evaluates the model every rank holds
    double val = validation_loss(*model, corpus, o);
    if (!o.figures.empty()) write_attention_figure(*model, corpus, o);
    const Sample final =
        sample(*model, corpus, o, o.seed,
               fmt::format("sample (temperature {}, top-k {}, seed {})", o.temperature, o.top_k, o.seed));
    run::say("validation loss {}\n", loss_text(corpus, val));
    if (run::stop_signal()) return 0;  // run_program exits 128 + signal
    // The cache's self-check: the sample fed again, each window with the cache
    // and recomputed. Their logits differ by float32's rounding, which can flip
    // a draw near a tie, so two samples' texts could differ with a sound cache.
    const auto start = std::chrono::steady_clock::now();
    const double difference = models::cache_logit_difference(*model, final.tokens, final.prompt_length);
    const double check_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto drawn = static_cast<double>(final.tokens.size() - final.prompt_length);
    constexpr double kRounding = 1e-3;  // a thousandth of a nat: rounding, not a stale key or value
    run::say(
        "sampling: {:.0f} tok/s with the KV cache, {:.0f} tok/s recomputing the window as well; the cache's "
        "logits {} recomputation's\n",
        drawn / final.seconds, drawn / check_seconds,
        difference <= kRounding ? fmt::format("equal, to {:.1e},", difference)
                                : fmt::format("DIFFER by {:.3g} from", difference));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    return run::main(argc, argv,
                     {.name = "char_lm",
                      .about = "Train a character-level GPT on a text and sample from it.",
                      .saves = "the model, its alphabet, AdamW's state, the generators, the loss curve",
                      .seed = &o.seed,
                      .flags = [&](run::Flags& f) { add_flags(f, o); },
                      .check = [&](run::Run& r) { check_flags(r, o); },
                      .work = [&](run::Run& r) { return work(r, o); }});
}
