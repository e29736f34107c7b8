// The copy task (001's full post, "A First Example"): train an encoder-decoder Transformer
// to copy random sequences, then decode held-out ones greedily.
//   ./build/examples/copy_task                     the default preset (about 10 seconds on 2 cores)
//   ./build/examples/copy_task --preset annotated  the Annotated Transformer's run (2018 post)
//   ./build/examples/copy_task --preset annotated2022  its run in the 2022 revision (about 3 minutes)
//   ./build/examples/copy_task --help              every flag
#include <fstream>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "autograd/autograd.h"
#include "data/copy_task.h"
#include "examples/attention_figures.h"
#include "examples/flags.h"
#include "examples/load_or_train.h"
#include "examples/loss_curve_png.h"
#include "examples/progress_bar.h"
#include "examples/run_program.h"
#include "models/greedy_decode.h"
#include "models/transformer.h"
#include "nn/attention_mask.h"
#include "nn/checkpoint.h"
#include "nn/loss.h"
#include "nn/lr_schedule.h"
#include "nn/non_finite.h"
#include "nn/optim/adam.h"

using namespace autograd;

namespace {

struct Options {
    std::string preset = "default";
    std::int64_t vocab = 11, seq_len = 10;
    std::int64_t layers = 2, d_model = 64, d_ff = 256, heads = 4;
    double dropout = 0.0;
    std::string norm = "pre";
    std::string layer_norm = "standard";  // or "annotated": 001's formula
    std::int64_t batch = 64, epochs = 30, batches_per_epoch = 50;
    std::string schedule = "warmup";  // the Transformer's (001), or "cosine"
    double lr = 1.0;  // warmup: the schedule's factor (001's NoamOpt factor; 2022's LambdaLR base lr); cosine: the peak
    std::int64_t warmup = 200;
    double smoothing = 0.0;
    double beta2 = 0.98, adam_eps = 1e-9;
    std::uint64_t seed = 1;
    int threads = 2;
    std::int64_t eval_sequences = 1000, show = 5;
    std::string save, load, csv, figures;
    bool detect_anomaly = false;
    bool share_embeddings = false;  // 001 "Embeddings and Softmax"; 001's own make_model does not tie
};

// The Annotated Transformer's copy task (001's full post, beyond the excerpt): V=11,
// N=2, d_model=512, d_ff=2048, h=8, dropout 0.1, pre-norm with 001's LayerNorm, Adam
// (betas (0.9, 0.98), eps 1e-9) under the warmup schedule with warmup 400, no smoothing,
// start symbol 1. The 2018 post (001's): batch 30, 10 epochs of 20 batches,
// NoamOpt(d_model, 1, 400), step k at rate(k). Its 2022 revision: batch 80, 20 epochs of
// 20 batches, Adam(lr 0.5) under LambdaLR, so the factor is 0.5.
void apply_preset(Options& o) {
    if (o.preset == "annotated" || o.preset == "annotated2022") {
        o.layers = 2, o.d_model = 512, o.d_ff = 2048, o.heads = 8, o.dropout = 0.1, o.norm = "pre";
        o.layer_norm = "annotated";
        o.warmup = 400;
    }
    if (o.preset == "annotated") o.batch = 30, o.epochs = 10, o.batches_per_epoch = 20, o.lr = 1.0;
    if (o.preset == "annotated2022") o.batch = 80, o.epochs = 20, o.batches_per_epoch = 20, o.lr = 0.5;
}

models::TransformerConfig model_config(const Options& o) {
    models::TransformerConfig c;
    c.src_vocab = c.tgt_vocab = o.vocab;
    c.n_layers = o.layers, c.d_model = o.d_model, c.d_ff = o.d_ff, c.heads = o.heads, c.dropout = o.dropout;
    c.norm = o.norm == "post" ? nn::Norm::post : nn::Norm::pre;
    c.layer_norm = o.layer_norm == "annotated" ? nn::LayerNormFormula::annotated : nn::LayerNormFormula::standard;
    c.share_embeddings = o.share_embeddings;
    c.seed = o.seed;
    return c;
}

// The loss of one batch under teacher forcing (000 note i).
Tensor batch_loss(const models::Transformer& model, const data::CopyBatch& b, const nn::LabelSmoothingLoss& criterion) {
    Tensor src_mask = nn::padding_mask(b.src, data::kCopyPad);
    Tensor out = model.forward(b.src, b.tgt_in, src_mask, models::target_mask(b.tgt_in, data::kCopyPad));
    return criterion(model.generator->forward(out), b.tgt_out);
}

double eval_loss(const models::Transformer& model, const Options& o, const nn::LabelSmoothingLoss& criterion) {
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    Generator gen(o.seed + 7777);  // the same held-out batches every epoch
    double total = 0;
    for (int i = 0; i < 5; ++i) total += batch_loss(model, data::copy_task_batch(o.vocab, o.seq_len, o.batch, gen), criterion).item();
    return total / 5;
}

void train(models::Transformer& model, const Options& o) {
    nn::optim::Adam opt(model.parameters(), {.lr = 0, .beta1 = 0.9, .beta2 = o.beta2, .eps = o.adam_eps});
    const std::int64_t steps = o.epochs * o.batches_per_epoch;
    nn::WarmupSchedule warmup(o.d_model, o.warmup, 1.0);
    std::unique_ptr<nn::WarmupCosineSchedule> cosine;
    if (o.schedule == "cosine")
        cosine = std::make_unique<nn::WarmupCosineSchedule>(o.lr, std::min(o.warmup, steps - 1), steps);
    auto lr_at = [&](std::int64_t step) { return cosine ? cosine->lr(step) : o.lr * warmup.lr(step); };
    nn::LabelSmoothingLoss criterion(o.vocab, data::kCopyPad, o.smoothing);
    Generator gen(o.seed);
    examples::LossCurve curve;
    std::ofstream csv;
    if (!o.csv.empty()) {
        csv.open(o.csv);
        if (!csv) throw std::runtime_error(fmt::format("cannot write {}", o.csv));
        csv << "step,loss,lr,eval_loss\n";
    }
    for (std::int64_t epoch = 1; epoch <= o.epochs; ++epoch) {
        examples::ProgressBar bar(o.batches_per_epoch, "tok");
        fmt::print("epoch {}/{}\n", epoch, o.epochs);
        for (std::int64_t i = 1; i <= o.batches_per_epoch; ++i) {
            const std::int64_t step = (epoch - 1) * o.batches_per_epoch + i;
            data::CopyBatch b = data::copy_task_batch(o.vocab, o.seq_len, o.batch, gen);
            opt.zero_grad();
            Tensor loss = batch_loss(model, b, criterion);
            const double loss_value = loss.item();
            nn::check_finite_loss(loss_value, step);
            loss.backward();
            nn::check_finite_gradients(model, step);
            opt.set_lr(lr_at(step));
            opt.step();
            bar.update(i, b.ntokens * 2,  // source and target tokens
                       fmt::format("loss {:.4f}  lr {:.1e}", loss_value, opt.lr()));
            if (csv) csv << fmt::format("{},{},{},\n", step, loss_value, opt.lr());
            curve.train.emplace_back(static_cast<double>(step), loss_value);
        }
        double ev = eval_loss(model, o, criterion);
        fmt::print("epoch {} eval loss {:.4f}  ({} of {} steps)\n", epoch, ev, epoch * o.batches_per_epoch, steps);
        if (csv) csv << fmt::format("{},,,{}\n", epoch * o.batches_per_epoch, ev);
        curve.eval.emplace_back(static_cast<double>(epoch * o.batches_per_epoch), ev);
    }
    if (!o.csv.empty()) {
        const std::string png = o.csv + ".png";
        std::string axes = examples::write_loss_curve_png(png, curve);
        fmt::print("loss curve written to {} and {} ({})\n", o.csv, png, axes);
    }
}

// Decodes `o.show` held-out sequences for the eye, then the exact-match
// accuracy over o.eval_sequences of them.
void evaluate(const models::Transformer& model, const Options& o) {
    Generator gen(o.seed + 1000003);  // held out: never drawn in training
    const std::int64_t chunk = 100;
    std::int64_t correct = 0, seen = 0;
    bool shown = false;
    while (seen < o.eval_sequences) {
        std::int64_t n = std::min(chunk, o.eval_sequences - seen);
        data::CopyBatch b = data::copy_task_batch(o.vocab, o.seq_len, n, gen);
        models::Decoded d = models::greedy_decode(model, b.src, nn::padding_mask(b.src, data::kCopyPad), o.seq_len, 1);
        for (std::int64_t i = 0; i < n; ++i) {
            bool match = true;
            std::string in, out;
            for (std::int64_t t = 0; t < o.seq_len; ++t) {
                auto a = static_cast<std::int64_t>(b.src.at({i, t})), c = static_cast<std::int64_t>(d.tokens.at({i, t}));
                match = match && a == c;
                in += fmt::format("{:>3}", a);
                out += fmt::format("{:>3}", c);
            }
            correct += match;
            if (!shown && i < o.show) fmt::print("  input {}\n  output{}   {}\n", in, out, match ? "match" : "DIFFERS");
        }
        shown = true;
        seen += n;
    }
    fmt::print("exact-match accuracy: {}/{} = {:.1f}% of held-out sequences copied exactly\n", correct, seen,
               100.0 * static_cast<double>(correct) / static_cast<double>(seen));
}

// The attention maps of the first held-out sequence, decoded by the model itself.
void write_figures(models::Transformer& model, const Options& o) {
    Generator gen(o.seed + 1000003);  // the same held-out stream evaluate() draws from
    data::CopyBatch b = data::copy_task_batch(o.vocab, o.seq_len, 1, gen);
    Tensor decoded = models::greedy_decode(model, b.src, nn::padding_mask(b.src, data::kCopyPad), o.seq_len, 1).tokens;
    fmt::print("attention maps (rows: queries, columns: keys; heads left to right) written:\n");
    for (const std::string& path : examples::write_attention_figures(model, b.src, decoded, data::kCopyPad, o.figures))
        fmt::print("  {}\n", path);
}

// The flags; the preset, read first, sets the defaults the other flags override.
void add_flags(CLI::App& app, Options& o, int argc, char** argv) {
    app.add_option("--preset", o.preset,
                   "default (about 10 seconds on 2 cores), annotated (the Annotated Transformer's run, 2018 post) or "
                   "annotated2022 (its 2022 revision's run)")
        ->check(CLI::IsMember({"default", "annotated", "annotated2022"}));
    o.preset = examples::peek_preset(argc, argv, o.preset);  // the preset sets defaults, flags override them
    apply_preset(o);
    app.add_option("--vocab", o.vocab, "vocabulary size V (0 pads, symbols 1..V-1)")->check(CLI::Range(3, 100000));
    app.add_option("--seq-len", o.seq_len, "sequence length, start symbol included")->check(CLI::Range(2, 4096));
    app.add_option("--layers", o.layers, "N, layers in each stack")->check(CLI::Range(1, 64));
    app.add_option("--d-model", o.d_model, "model width")->check(CLI::Range(2, 8192));
    app.add_option("--d-ff", o.d_ff, "feed-forward width")->check(CLI::Range(1, 65536));
    app.add_option("--heads", o.heads, "attention heads h (must divide d_model)")->check(CLI::Range(1, 256));
    app.add_option("--dropout", o.dropout, "dropout probability")->check(examples::finite_range(0.0, 0.99));
    app.add_option("--norm", o.norm, "residual form: pre or post (003)")->check(CLI::IsMember({"pre", "post"}));
    app.add_option("--layer-norm", o.layer_norm,
                   "standard ((a - mu) / sqrt(var + 1e-5), 003) or annotated (001: (a - mu) / (unbiased std + 1e-6))")
        ->check(CLI::IsMember({"standard", "annotated"}));
    app.add_option("--batch", o.batch, "sequences per batch")->check(CLI::Range(1, 100000));
    app.add_option("--epochs", o.epochs, "epochs")->check(CLI::Range(0, 100000));
    app.add_option("--batches-per-epoch", o.batches_per_epoch, "batches per epoch")->check(CLI::Range(1, 1000000));
    app.add_option("--schedule", o.schedule, "warmup (001: lr = factor * d_model^-0.5 * min(s^-0.5, s w^-1.5)) or cosine")
        ->check(CLI::IsMember({"warmup", "cosine"}));
    app.add_option("--lr", o.lr, "warmup: the factor; cosine: the peak learning rate")
        ->check(examples::finite_positive());
    app.add_option("--warmup", o.warmup, "warmup steps of the schedule")->check(CLI::Range(1, 100000000));
    app.add_flag("--share-embeddings", o.share_embeddings,
                 "one matrix for the source and target embeddings and the generator (001 \"Embeddings and Softmax\")");
    app.add_option("--smoothing", o.smoothing, "label smoothing")->check(examples::finite_range(0.0, 0.99));
    app.add_option("--seed", o.seed, "seed of initialisation and data");
    app.add_option("--threads", o.threads, "threads (BLAS)")->check(CLI::Range(1, 256));
    app.add_option("--eval-sequences", o.eval_sequences, "held-out sequences for the accuracy")->check(CLI::Range(1, 10000000));
    app.add_option("--show", o.show, "held-out sequences to print")->check(CLI::Range(0, 100));
    app.add_option("--save", o.save, "write a checkpoint here after training");
    app.add_option("--load", o.load, "load this checkpoint and decode without training (same model flags)");
    app.add_option("--csv", o.csv, "write the loss curve (step,loss,lr,eval_loss) here, and as a picture in <csv>.png");
    app.add_option("--figures", o.figures,
                   "after training, write each layer's attention maps for a held-out sequence into this folder");
    app.add_flag("--detect-anomaly", o.detect_anomaly,
                 "check every op's output and gradient, and name the first op that makes a NaN or an infinity (slow)");
}

// What no single flag's check can see: flags that must agree, and output
// paths that must be writable, all before any work starts.
void check_flags(const Options& o) {
    if (o.d_model % o.heads != 0) throw CLI::ValidationError("--heads", "must divide --d-model");
    examples::check_output_file("--save", o.save);
    examples::check_output_file("--csv", o.csv);
    examples::check_output_file("--csv", o.csv + ".png");
    examples::check_output_folder("--figures", o.figures);
}

// Trains (or loads), saves, decodes held-out sequences and draws the figures asked for.
int run(const Options& o) {
    set_num_threads(o.threads);
    manual_seed(o.seed);  // dropout
    auto model = models::make_transformer(model_config(o));
    fmt::print("copy task: V={} length {} | Transformer N={} d_model={} d_ff={} h={} dropout {} {}-norm ({} LayerNorm){}, "
               "{} parameters | batch {}, {} epochs x {} batches, Adam, {} schedule (warmup {}, lr {}) | {} threads\n",
               o.vocab, o.seq_len, o.layers, o.d_model, o.d_ff, o.heads, o.dropout, o.norm, o.layer_norm,
               o.share_embeddings ? ", shared embeddings" : "", model->parameter_count(), o.batch, o.epochs, o.batches_per_epoch, o.schedule, o.warmup, o.lr, o.threads);
    examples::load_or_train(*model, o.load, [&] { train(*model, o); });
    examples::save_if_asked(*model, o.save);
    evaluate(*model, o);
    if (!o.figures.empty()) write_figures(*model, o);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app{"Train a Transformer on the copy task, then decode held-out sequences."};
    add_flags(app, o, argc, argv);
    if (int status = examples::parse_flags(app, argc, argv, "copy_task", [&] { check_flags(o); }); status >= 0) return status;
    return examples::run_program("copy_task", o.detect_anomaly, [&] { return run(o); });
}
