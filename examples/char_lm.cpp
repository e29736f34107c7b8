// A character-level GPT (002 "Decoders: auto-regressively sample the next
// token"; nanoGPT's shakespeare_char, on another corpus): trains on a UTF-8
// text, reports the validation loss in nats per character and the perplexity
// each epoch, and samples text after each epoch and at the end.
//   ./build/examples/char_lm                         the fortunes corpus (a few minutes on 2 cores)
//   ./build/examples/char_lm --text FILE             any UTF-8 text
//   ./build/examples/char_lm --load m.ckpt --prompt "Life is"   continue a text with a trained model
//   ./build/examples/char_lm --help                  every flag
// Tokens are the text's own characters (Unicode code points, vocabulary = the
// distinct ones, in code-point order), so --load needs the same text and model flags.
#include <chrono>
#include <cmath>
#include <fstream>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "autograd/autograd.h"
#include "data/char_corpus.h"
#include "examples/flags.h"
#include "examples/load_or_train.h"
#include "examples/run_program.h"
#include "examples/progress_bar.h"
#include "models/generate.h"
#include "models/gpt.h"
#include "nn/checkpoint.h"
#include "nn/clip_grad.h"
#include "nn/loss.h"
#include "nn/lr_schedule.h"
#include "nn/non_finite.h"
#include "nn/optim/adamw.h"

using namespace autograd;

namespace {

const char* kFortunesDir = "/usr/share/games/fortunes";

struct Options {
    std::string text;  // empty: the fortunes corpus
    std::int64_t context = 64, layers = 4, d_model = 128, heads = 4, d_ff = 512;
    std::string positions = "learned";
    bool untie = false;
    std::int64_t block = 0, experts = 0, top_k_experts = 2;
    double aux = 0.01, dropout = 0.0;
    // 1.2M training characters: 6 x 200 steps of 16 windows of 64. Many small
    // steps learn faster per character than fewer large ones (measured: 1.94
    // nats/char against 2.03 for 32 windows and 2.27 for context 128, 16 windows).
    std::int64_t batch = 16, epochs = 6, steps = 200;
    double lr = 3e-3, weight_decay = 0.1, clip = 1.0;
    double val_fraction = 0.1;
    std::int64_t val_windows = 128;
    std::uint64_t seed = 1;
    int threads = 2;
    std::string prompt;
    double temperature = 0.8;
    std::int64_t top_k = 0, sample_chars = 300;
    std::string save, load, csv;
    bool detect_anomaly = false;
};

struct Corpus {
    std::unique_ptr<data::CharVocab> vocab;
    std::vector<std::int64_t> train, val;
    std::u32string start;    // what a sample is conditioned on before the prompt
    std::int64_t stop = -1;  // the token that ends a sample (fortunes: '%', the entry separator)
    std::string name;
};

// The text, its alphabet, and a train/validation split at the first entry (or
// line) boundary after (1 - val_fraction) of the text: the last entries are held out.
Corpus load_corpus(const Options& o) {
    Corpus c;
    bool fortunes = o.text.empty();
    c.name = fortunes ? fmt::format("fortunes ({} files of {})", data::kFortuneFiles.size(), kFortunesDir) : o.text;
    std::u32string text;
    try {
        text = data::decode_utf8(fortunes ? data::read_fortunes(kFortunesDir) : data::read_text_file(o.text));
    } catch (const data::DatasetError& e) {
        throw data::DatasetError(fmt::format("{}: {}", c.name, e.what()));
    }
    c.vocab = std::make_unique<data::CharVocab>(text);
    std::size_t cut = static_cast<std::size_t>(static_cast<double>(text.size()) * (1 - o.val_fraction));
    std::size_t boundary = text.find(fortunes ? U"\n%\n" : U"\n", cut);
    if (boundary != std::u32string::npos) cut = boundary + 1;
    std::vector<std::int64_t> ids = c.vocab->encode(text);
    c.train.assign(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(cut));
    c.val.assign(ids.begin() + static_cast<std::ptrdiff_t>(cut), ids.end());
    c.start = fortunes ? U"%\n" : U"\n";  // a new entry begins / a new line begins
    if (fortunes) c.stop = c.vocab->encode(U"%")[0];
    return c;
}

models::GPTConfig model_config(const Options& o, std::int64_t vocab) {
    models::GPTConfig c;
    c.vocab = vocab, c.context = o.context, c.d_model = o.d_model, c.n_layers = o.layers, c.heads = o.heads;
    c.d_ff = o.d_ff, c.dropout = o.dropout, c.tie_weights = !o.untie;
    c.positions = o.positions == "sinusoidal" ? models::Positions::sinusoidal : models::Positions::learned;
    c.block = o.block, c.experts = o.experts, c.top_k = o.top_k_experts, c.seed = o.seed;
    return c;
}

// Mean next-character cross-entropy (nats/char) over non-overlapping windows
// of the validation text (at most o.val_windows of them), in eval mode.
double validation_loss(const models::GPT& model, const Corpus& c, const Options& o) {
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    const auto n = static_cast<std::int64_t>(c.val.size());
    std::vector<std::int64_t> starts;
    for (std::int64_t s = 0; s + o.context + 1 <= n && static_cast<std::int64_t>(starts.size()) < o.val_windows; s += o.context)
        starts.push_back(s);
    double total = 0;
    std::int64_t counted = 0;
    for (std::size_t i = 0; i < starts.size(); i += static_cast<std::size_t>(o.batch)) {
        std::vector<std::int64_t> chunk(starts.begin() + static_cast<std::ptrdiff_t>(i),
                                        starts.begin() + static_cast<std::ptrdiff_t>(std::min(starts.size(), i + static_cast<std::size_t>(o.batch))));
        data::TextBatch b = data::text_batch(c.val, chunk, o.context);
        total += cross_entropy(model.forward(b.inputs), b.targets).item() * static_cast<double>(b.targets.numel());
        counted += b.targets.numel();
    }
    return total / static_cast<double>(counted);
}

struct Sample {
    std::string text;
    double seconds;
    std::int64_t tokens;
};

Sample sample(const models::GPT& model, const Corpus& c, const Options& o, std::uint64_t seed, bool use_cache = true) {
    std::vector<std::int64_t> prompt = c.vocab->encode(c.start + data::decode_utf8(o.prompt));
    models::SamplingOptions so{.max_new_tokens = o.sample_chars, .temperature = o.temperature, .top_k = o.top_k,
                               .end_token = c.stop, .use_cache = use_cache};
    Generator gen(seed);
    auto start = std::chrono::steady_clock::now();
    std::vector<std::int64_t> out = models::generate(model, prompt, so, gen);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!out.empty() && out.back() == c.stop) out.pop_back();  // the separator that ended it
    return {o.prompt + data::encode_utf8(c.vocab->decode(out)), seconds, static_cast<std::int64_t>(out.size())};
}

void print_sample(const std::string& title, const Sample& s) {
    fmt::print("--- {} ---\n{}\n---\n", title, s.text);
}

void train(models::GPT& model, const Corpus& c, const Options& o) {
    nn::optim::AdamW opt(model.parameters(), {.lr = o.lr, .beta1 = 0.9, .beta2 = 0.95, .weight_decay = o.weight_decay});
    const std::int64_t total = o.epochs * o.steps;
    nn::WarmupCosineSchedule schedule(o.lr, std::min<std::int64_t>(50, total / 10 + 1), total, o.lr / 10);
    Generator gen(o.seed);
    std::ofstream csv;
    if (!o.csv.empty()) {
        csv.open(o.csv);
        if (!csv) throw std::runtime_error(fmt::format("cannot write {}", o.csv));
        csv << "step,loss,lr,val_loss,val_perplexity\n";
    }
    const auto last_start = static_cast<std::int64_t>(c.train.size()) - o.context - 1;
    double train_seconds = 0;
    std::int64_t train_tokens = 0;
    for (std::int64_t epoch = 1; epoch <= o.epochs; ++epoch) {
        fmt::print("epoch {}/{}\n", epoch, o.epochs);
        examples::ProgressBar bar(o.steps, "tok");
        for (std::int64_t i = 1; i <= o.steps; ++i) {
            const std::int64_t step = (epoch - 1) * o.steps + i;
            std::vector<std::int64_t> starts(static_cast<std::size_t>(o.batch));
            for (auto& s : starts) s = gen.randint(last_start + 1);  // random windows of the training text
            data::TextBatch b = data::text_batch(c.train, starts, o.context);
            opt.zero_grad();
            Tensor ce = cross_entropy(model.forward(b.inputs), b.targets);
            Tensor loss = o.experts > 0 ? ce + model.aux_loss() * o.aux : ce;  // + the load-balancing term
            const double loss_value = ce.item();
            nn::check_finite_loss(loss.item(), step);
            loss.backward();
            nn::check_finite_gradients(model, step);
            nn::clip_grad_norm_(model.parameters(), o.clip);
            opt.set_lr(schedule.lr(step));
            opt.step();
            bar.update(i, b.targets.numel(), fmt::format("loss {:.3f}  lr {:.1e}", loss_value, opt.lr()));
            if (csv) csv << fmt::format("{},{},{},,\n", step, loss_value, opt.lr());
        }
        train_seconds += bar.seconds();
        train_tokens += o.steps * o.batch * o.context;
        double val = validation_loss(model, c, o);
        fmt::print("epoch {} validation loss {:.3f} nats/char, perplexity {:.2f}  (training {:.0f} tok/s)\n", epoch, val,
                   std::exp(val), static_cast<double>(train_tokens) / train_seconds);
        if (csv) csv << fmt::format("{},,,{},{}\n", epoch * o.steps, val, std::exp(val));
        print_sample(fmt::format("sample after epoch {} (temperature {}, seed {})", epoch, o.temperature, o.seed + epoch),
                     sample(model, c, o, o.seed + static_cast<std::uint64_t>(epoch)));
    }
    if (!o.csv.empty()) fmt::print("loss curve written to {}\n", o.csv);
}

// The flags.
void add_flags(CLI::App& app, Options& o) {
    app.add_option("--text", o.text, "a UTF-8 text file to train on (default: Debian's fortunes, /usr/share/games/fortunes)")
        ->check(CLI::ExistingFile);
    app.add_option("--context", o.context, "T, characters the model sees (the positions' table)")->check(CLI::Range(2, 8192));
    app.add_option("--layers", o.layers, "N, blocks")->check(CLI::Range(1, 64));
    app.add_option("--d-model", o.d_model, "model width")->check(CLI::Range(2, 8192));
    app.add_option("--heads", o.heads, "attention heads (must divide --d-model)")->check(CLI::Range(1, 256));
    app.add_option("--d-ff", o.d_ff, "MLP width (each expert's, with --experts)")->check(CLI::Range(1, 65536));
    app.add_option("--positions", o.positions, "learned or sinusoidal")->check(CLI::IsMember({"learned", "sinusoidal"}));
    app.add_flag("--untie", o.untie, "an output projection of its own instead of the token embedding's transpose");
    app.add_option("--block", o.block, "block-local attention over blocks of L characters (004 §15.6.1); 0: full")
        ->check(CLI::Range(0, 8192));
    app.add_option("--experts", o.experts, "a mixture of E expert MLPs in every block (004 §15.5.7); 0: one MLP")
        ->check(CLI::Range(0, 256));
    app.add_option("--top-k-experts", o.top_k_experts, "experts per character")->check(CLI::Range(1, 256));
    app.add_option("--aux", o.aux, "coefficient of the MoE load-balancing loss")->check(examples::finite_range(0.0, 100.0));
    app.add_option("--dropout", o.dropout, "dropout probability")->check(examples::finite_range(0.0, 0.99));
    app.add_option("--batch", o.batch, "windows per batch")->check(CLI::Range(1, 100000));
    app.add_option("--epochs", o.epochs, "epochs (each --steps batches, then validation and a sample)")
        ->check(CLI::Range(0, 100000));
    app.add_option("--steps", o.steps, "batches per epoch")->check(CLI::Range(1, 10000000));
    app.add_option("--lr", o.lr, "peak learning rate (AdamW; warmup, then cosine to a tenth)")->check(examples::finite_positive());
    app.add_option("--weight-decay", o.weight_decay, "AdamW's weight decay")->check(examples::finite_range(0.0, 10.0));
    app.add_option("--clip", o.clip, "gradient-norm clipping")->check(examples::finite_positive());
    app.add_option("--val-fraction", o.val_fraction, "the text's last part held out for validation")
        ->check(examples::finite_range(0.01, 0.5));
    app.add_option("--val-windows", o.val_windows, "validation windows of --context characters, at most")
        ->check(CLI::Range(1, 10000000));
    app.add_option("--seed", o.seed, "seed of initialisation, batches and samples");
    app.add_option("--threads", o.threads, "threads (BLAS)")->check(CLI::Range(1, 256));
    app.add_option("--prompt", o.prompt, "text the samples continue (default: a new entry / a new line)");
    app.add_option("--temperature", o.temperature, "sampling temperature; 0: greedy")->check(examples::finite_range(0.0, 100.0));
    app.add_option("--top-k", o.top_k, "sample among the k most probable characters; 0: all")->check(CLI::Range(0, 100000));
    app.add_option("--sample-chars", o.sample_chars, "characters per sample, at most")->check(CLI::Range(1, 1000000));
    app.add_option("--save", o.save, "write a checkpoint here after training");
    app.add_option("--load", o.load, "load this checkpoint and sample without training (same text and model flags)");
    app.add_option("--csv", o.csv, "write the loss curve (step,loss,lr,val_loss,val_perplexity) here");
    app.add_flag("--detect-anomaly", o.detect_anomaly,
                 "check every op's output and gradient, and name the first op that makes a NaN or an infinity (slow)");
}

// What no single flag's check can see: flags that must agree, and output
// paths that must be writable, all before any work starts.
void check_flags(const Options& o) {
    examples::check_output_file("--save", o.save);
    examples::check_output_file("--csv", o.csv);
    if (o.d_model % o.heads != 0) throw CLI::ValidationError("--heads", "must divide --d-model");
    if (o.experts > 0 && o.top_k_experts > o.experts)
        throw CLI::ValidationError("--top-k-experts", "must be at most --experts");
    try {
        data::decode_utf8(o.prompt);
    } catch (const data::DatasetError&) {
        throw CLI::ValidationError("--prompt", "is not valid UTF-8");
    }
}

// Reads the text, trains (or loads), saves, reports validation loss and samples.
int run(const Options& o) {
    set_num_threads(o.threads);
    manual_seed(o.seed);  // dropout
    Corpus corpus = load_corpus(o);
    if (static_cast<std::int64_t>(corpus.train.size()) < o.context + 1 ||
        static_cast<std::int64_t>(corpus.val.size()) < o.context + 1)
        throw data::DatasetError(fmt::format("{}: {} training and {} validation characters; both need more than "
                                             "--context {}", corpus.name, corpus.train.size(), corpus.val.size(), o.context));
    for (char32_t ch : data::decode_utf8(o.prompt))
        if (!corpus.vocab->contains(ch)) {
            fmt::print(stderr, "char_lm: --prompt: '{}' does not occur in the text, so the model has no token for it\n",
                       data::encode_utf8(std::u32string(1, ch)));
            return 2;
        }
    auto model = models::make_gpt(model_config(o, corpus.vocab->size()));
    fmt::print("char LM on {}: {} characters ({} train, {} validation), alphabet of {}\n", corpus.name,
               corpus.train.size() + corpus.val.size(), corpus.train.size(), corpus.val.size(), corpus.vocab->size());
    fmt::print("GPT N={} d_model={} h={} d_ff={} context {} {} positions{}{}{}, {} parameters | batch {}, {} epochs x {} "
               "steps, AdamW lr {} | {} threads\n",
               o.layers, o.d_model, o.heads, o.d_ff, o.context, o.positions, o.untie ? "" : ", tied output",
               o.block > 0 ? fmt::format(", block-local L={}", o.block) : "",
               o.experts > 0 ? fmt::format(", MoE {} experts top-{}", o.experts, o.top_k_experts) : "",
               model->parameter_count(), o.batch, o.epochs, o.steps, o.lr, o.threads);
    examples::load_or_train(*model, o.load, [&] { train(*model, corpus, o); });
    examples::save_if_asked(*model, o.save);
    double val = validation_loss(*model, corpus, o);
    Sample final = sample(*model, corpus, o, o.seed);
    Sample again = sample(*model, corpus, o, o.seed, /*use_cache=*/false);  // the same text, recomputed
    print_sample(fmt::format("sample (temperature {}, top-k {}, seed {})", o.temperature, o.top_k, o.seed), final);
    fmt::print("validation loss {:.3f} nats/char, perplexity {:.2f}\n", val, std::exp(val));
    fmt::print("sampling: {:.0f} tok/s with the KV cache, {:.0f} tok/s recomputing the window ({})\n",
               static_cast<double>(final.tokens) / final.seconds, static_cast<double>(again.tokens) / again.seconds,
               final.text == again.text ? "same text" : "TEXTS DIFFER");
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app{"Train a character-level GPT on a text and sample from it."};
    add_flags(app, o);
    if (int status = examples::parse_flags(app, argc, argv, "char_lm", [&] { check_flags(o); }); status >= 0) return status;
    return examples::run_program("char_lm", o.detect_anomaly, [&] { return run(o); });
}
