// The copy task (001's full post, "A First Example"): train an encoder-decoder Transformer
// to copy random sequences, then decode held-out ones greedily.
//   ./build/examples/copy_task                     the default preset (about 10 seconds on 2 cores)
//   ./build/examples/copy_task --preset annotated  the Annotated Transformer's run (2018 post)
//   ./build/examples/copy_task --preset annotated2022  its run in the 2022 revision (about 3 minutes)
//   ./build/examples/copy_task --task reverse --positions none   a knob of the notes turned (docs/start-here.md)
//   ./build/examples/copy_task --help              every flag
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "lectern/autograd/autograd.h"
#include "lectern/data/copy_task.h"
#include "lectern/data/sequence_tasks.h"
#include "lectern/models/greedy_decode.h"
#include "lectern/models/transformer.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/loss.h"
#include "lectern/nn/lr_schedule.h"
#include "lectern/nn/optim/adam.h"
#include "lectern/run/figures/attention_figures.h"
#include "lectern/run/shell/console.h"
#include "lectern/run/shell/data_parallel_run.h"
#include "lectern/run/flags/flags.h"
#include "lectern/run/shell/memory_budget.h"
#include "lectern/run/flags/model_flags.h"
#include "lectern/run/shell/output_files.h"
#include "lectern/run/shell/program.h"
#include "lectern/run/training/training_loop.h"

using namespace autograd;

namespace {

struct Options {
    std::int64_t vocab = 11, seq_len = 10;
    run::ModelFlags model{.layers = 2, .d_model = 64, .heads = 4, .d_ff = 256, .dropout = 0.0};
    std::string norm = "pre";
    std::string layer_norm = "standard";  // or "annotated": 001's formula
    std::int64_t batch = 64, epochs = 30, batches_per_epoch = 50;
    std::string schedule = "warmup";  // the Transformer's (001), or "cosine"
    double lr = 1.0;  // warmup: the schedule's factor (001's NoamOpt factor; 2022's LambdaLR base lr); cosine: the peak
    std::int64_t warmup = 200;
    double smoothing = 0.0;
    double beta2 = 0.98, adam_eps = 1e-9;
    std::uint64_t seed = 1;
    std::int64_t eval_sequences = 1000, show = 5;
    std::string csv, figures;
    bool share_embeddings = false;  // 001 "Embeddings and Softmax"; 001's own make_model does not tie
    // The knobs of the notes (docs/start-here.md): the task (data/sequence_tasks.h), the positional
    // code (nn/make_positional_encoding.h), the 1/sqrt(d_k) of 001 "Scaled Dot-Product Attention",
    // and the attention's compatibility function (001's dot product; d_k = d_model / h).
    std::string task = "copy";
    std::string positions = "sinusoidal";
    bool unscaled = false;
    std::string attention = "dot";
};

// The Annotated Transformer's copy task (001's full post, beyond the excerpt): V=11,
// N=2, d_model=512, d_ff=2048, h=8, dropout 0.1, pre-norm with 001's LayerNorm, Adam
// (betas (0.9, 0.98), eps 1e-9) under the warmup schedule with warmup 400, no smoothing,
// start symbol 1. The 2018 post (001's): batch 30, 10 epochs of 20 batches,
// NoamOpt(d_model, 1, 400), step k at rate(k). Its 2022 revision: batch 80, 20 epochs of
// 20 batches, Adam(lr 0.5) under LambdaLR, so the factor is 0.5.
void apply_preset(Options& o, const std::string& preset) {
    if (preset == "annotated" || preset == "annotated2022") {
        o.model = {.layers = 2, .d_model = 512, .heads = 8, .d_ff = 2048, .dropout = 0.1};
        o.norm = "pre";
        o.layer_norm = "annotated";
        o.warmup = 400;
    }
    if (preset == "annotated") o.batch = 30, o.epochs = 10, o.batches_per_epoch = 20, o.lr = 1.0;
    if (preset == "annotated2022") o.batch = 80, o.epochs = 20, o.batches_per_epoch = 20, o.lr = 0.5;
}

models::TransformerConfig model_config(const Options& o) {
    models::TransformerConfig c;
    c.src_vocab = c.tgt_vocab = o.vocab;
    c.n_layers = o.model.layers, c.d_model = o.model.d_model, c.d_ff = o.model.d_ff, c.heads = o.model.heads;
    c.dropout = o.model.dropout;
    c.norm = o.norm == "post" ? nn::Norm::post : nn::Norm::pre;
    c.layer_norm = o.layer_norm == "annotated" ? nn::LayerNormFormula::annotated : nn::LayerNormFormula::standard;
    c.share_embeddings = o.share_embeddings;
    c.positions = nn::parse_positions(o.positions);
    c.scaled_attention = !o.unscaled;
    c.compatibility = o.attention == "additive" ? nn::Compatibility::additive : nn::Compatibility::dot;
    c.seed = o.seed;
    return c;
}

// The loss of one batch under teacher forcing (000 note i).
Tensor batch_loss(const models::Transformer& model, const data::CopyBatch& b, const nn::LabelSmoothingLoss& criterion) {
    Tensor src_mask = nn::padding_mask(b.src, data::kCopyPad);
    Tensor out = model.forward(b.src, b.tgt_in, src_mask, models::target_mask(b.tgt_in, data::kCopyPad));
    return criterion(model.generator->forward(out), b.tgt_out);
}

// A batch of the task: copy's is copy_task_batch's, drawn from `gen` the same way.
data::CopyBatch task_batch(const Options& o, std::int64_t batch, Generator& gen) {
    return data::sequence_task_batch(data::sequence_task_named(o.task), o.vocab, o.seq_len, batch, gen);
}

double eval_loss(const models::Transformer& model, const Options& o, const nn::LabelSmoothingLoss& criterion) {
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    Generator gen(o.seed + 7777);  // the same held-out batches every epoch
    double total = 0;
    for (int i = 0; i < 5; ++i) total += batch_loss(model, task_batch(o, o.batch, gen), criterion).item();
    return total / 5;
}

// Trains from step 0, or from the checkpoint --resume names, to the last step
// (run::TrainingLoop: it saves, resumes, stops on signals and shares the
// batches between the ranks of an mpirun job).
void train(models::Transformer& model, const Options& o, run::Run& r) {
    nn::optim::Adam opt(model.parameters(), {.lr = 0, .beta1 = 0.9, .beta2 = o.beta2, .eps = o.adam_eps});
    const std::int64_t steps = o.epochs * o.batches_per_epoch;
    nn::WarmupSchedule warmup(o.model.d_model, o.warmup, 1.0);
    std::unique_ptr<nn::WarmupCosineSchedule> cosine;
    if (o.schedule == "cosine")
        cosine = std::make_unique<nn::WarmupCosineSchedule>(o.lr, std::min(o.warmup, steps - 1), steps);
    nn::LabelSmoothingLoss criterion(o.vocab, data::kCopyPad, o.smoothing);
    run::TrainingLoop loop(model, opt,
                           {.steps = steps,
                            .epoch_steps = o.batches_per_epoch,
                            .unit = "tok",
                            .lr =
                                [&](std::int64_t step) { return cosine ? cosine->lr(step) : o.lr * warmup.lr(step); }},
                           r);
    Generator batches(o.seed);
    loop.keep("batches", batches);
    loop.evaluate = [&](std::int64_t epoch, std::int64_t step) {
        const double ev = eval_loss(model, o, criterion);
        run::say("epoch {} eval loss {:.4f}  ({} of {} steps)\n", epoch, ev, step, steps);
        loop.curve("eval").emplace_back(static_cast<double>(step), ev);
    };
    const auto [first, last] = loop.share(o.batch);  // this rank's sequences of every batch
    loop.run([&](std::int64_t) {
        data::CopyBatch b = task_batch(o, o.batch, batches);  // the same on every rank
        const std::int64_t batch_tokens = b.ntokens;
        if (loop.communicator().size() > 1) b = data::copy_task_rows(b, first, last);
        return run::StepLoss{batch_loss(model, b, criterion), b.ntokens, batch_tokens * 2};  // source and target tokens
    });
    loop.finish({"copy_task: loss and learning rate", "eval", "held-out loss per epoch"}, o.csv, o.figures);
}

// Decodes `o.show` held-out sequences for the eye, then the exact-match
// accuracy over o.eval_sequences of them: every decoded token equal to the
// target's (the source itself, reversed or sorted), the start symbol first.
void evaluate(const models::Transformer& model, const Options& o) {
    Generator gen(o.seed + 1000003);  // held out: never drawn in training
    const std::int64_t chunk = 100;
    std::int64_t correct = 0, seen = 0;
    bool shown = false;
    while (seen < o.eval_sequences) {
        std::int64_t n = std::min(chunk, o.eval_sequences - seen);
        data::CopyBatch b = task_batch(o, n, gen);
        models::Decoded d = models::greedy_decode(model, b.src, nn::padding_mask(b.src, data::kCopyPad), o.seq_len, 1);
        for (std::int64_t i = 0; i < n; ++i) {
            bool match = true;
            std::string in, want, out;
            for (std::int64_t t = 0; t < o.seq_len; ++t) {
                auto a = static_cast<std::int64_t>(b.src.at({i, t})),
                     c = static_cast<std::int64_t>(d.tokens.at({i, t}));
                auto w = t == 0 ? a : static_cast<std::int64_t>(b.tgt_out.at({i, t - 1}));
                match = match && w == c;
                in += fmt::format("{:>3}", a);
                want += fmt::format("{:>3}", w);
                out += fmt::format("{:>3}", c);
            }
            correct += match;
            if (!shown && i < o.show) {
                if (o.task == "copy") run::say("  input {}\n  output{}   {}\n", in, out, match ? "match" : "DIFFERS");
                else run::say("  input {}\n  target{}\n  output{}   {}\n", in, want, out, match ? "match" : "DIFFERS");
            }
        }
        shown = true;
        seen += n;
    }
    run::say("exact-match accuracy: {}/{} = {:.1f}% of held-out sequences {} exactly\n", correct, seen,
             100.0 * static_cast<double>(correct) / static_cast<double>(seen),
             o.task == "copy"      ? "copied"
             : o.task == "reverse" ? "reversed"
                                   : "sorted");
}

// The attention maps of the first held-out sequence, decoded by the model itself.
void write_figures(models::Transformer& model, const Options& o) {
    Generator gen(o.seed + 1000003);  // the same held-out stream evaluate() draws from
    data::CopyBatch b = task_batch(o, 1, gen);
    Tensor decoded = models::greedy_decode(model, b.src, nn::padding_mask(b.src, data::kCopyPad), o.seq_len, 1).tokens;
    run::say("attention maps (layers down, heads across; query tokens down, key tokens across) written:\n");
    for (const std::string& path : run::write_attention_figures(model, b.src, decoded, data::kCopyPad, o.figures))
        run::say("  {}\n", path);
}

// The flags, in the groups a checkpoint records (run/flags/flag_groups.h). The
// preset, applied first, sets the defaults the other flags override.
void add_flags(run::Flags& f, Options& o) {
    run::FlagGroup model = f.group("Model", run::Recorded::model);
    model.add("--vocab", o.vocab, "vocabulary size V (0 pads, symbols 1..V-1)")->check(CLI::Range(3, 100000));
    model.add("--seq-len", o.seq_len, "sequence length, start symbol included")->check(CLI::Range(2, 4096));
    run::add_model_flags(model, o.model, {.help = "N, layers in each stack"});
    model.add("--norm", o.norm, "residual form: pre or post (003)")->check(CLI::IsMember({"pre", "post"}));
    model
        .add("--layer-norm", o.layer_norm,
             "standard ((a - mu) / sqrt(var + 1e-5), 003) or annotated (001: (a - mu) / (unbiased std + 1e-6))")
        ->check(CLI::IsMember({"standard", "annotated"}));
    model.flag("--share-embeddings", o.share_embeddings,
               "one matrix for the source and target embeddings and the generator (001 \"Embeddings and Softmax\")");
    model
        .add("--task", o.task,
             "copy the sequence, reverse it or sort it (reverse needs positions: 002's permutation argument)")
        ->check(CLI::IsMember({"copy", "reverse", "sort"}));
    model
        .add("--positions", o.positions,
             "how tokens learn where they are: sinusoidal (004 eq. 15.57, added), learned, binary (004 §15.5.3), "
             "concatenated (eq. 15.57 beside narrower embeddings) or none")
        ->check(CLI::IsMember({"sinusoidal", "learned", "binary", "concatenated", "none"}));
    model.flag("--unscaled", o.unscaled,
               "attention without the 1/sqrt(d_k) (001's plain dot-product attention); d_k = d_model / heads");
    model
        .add("--attention", o.attention,
             "the compatibility function of query and key (001 \"Scaled Dot-Product Attention\"): dot, q.k "
             "(scaled unless --unscaled), or additive, v^T tanh(W_q q + W_k k)")
        ->check(CLI::IsMember({"dot", "additive"}));

    run::FlagGroup training = f.group("Training", run::Recorded::training);
    training.add("--batch", o.batch, "sequences per batch")->check(CLI::Range(1, 100000));
    training.add("--epochs", o.epochs, "epochs")->check(CLI::Range(1, 100000));
    training.add("--batches-per-epoch", o.batches_per_epoch, "batches per epoch")->check(CLI::Range(1, 1000000));
    training
        .add("--schedule", o.schedule, "warmup (001: lr = factor * d_model^-0.5 * min(s^-0.5, s w^-1.5)) or cosine")
        ->check(CLI::IsMember({"warmup", "cosine"}));
    training.add("--lr", o.lr, "warmup: the factor; cosine: the peak learning rate")->check(run::finite_positive());
    training.add("--warmup", o.warmup, "warmup steps of the schedule")->check(CLI::Range(1, 100000000));
    training.add("--smoothing", o.smoothing, "label smoothing")->check(run::finite_range(0.0, 0.99));
    f.group("Run", run::Recorded::run)
        .add("--seed", o.seed, "seed of initialisation and data")
        ->check(run::seed_value());

    run::FlagGroup output = f.group("Evaluation and output", run::Recorded::none);
    output.add("--eval-sequences", o.eval_sequences, "held-out sequences for the accuracy")
        ->check(CLI::Range(1, 10000000));
    output.add("--show", o.show, "held-out sequences to print")->check(CLI::Range(0, 100));
    output.add("--csv", o.csv, "write the curves (step,loss,lr,eval: the held-out loss) here")
        ->check(run::path_value());
    output
        .add("--figures", o.figures,
             "after training, draw the loss curve and the attention maps of a held-out sequence into this folder "
             "(PNG and SVG, and the attention as a page to explore in a browser, attention.html)")
        ->check(run::path_value());
}

// The bytes a run holds: Adam's training step, or decoding 100 sequences.
run::MemoryEstimate memory_estimate(const Options& o, bool training) {
    const auto N = static_cast<double>(o.model.layers), D = static_cast<double>(o.model.d_model),
               F = static_cast<double>(o.model.d_ff), V = static_cast<double>(o.vocab),
               T = static_cast<double>(o.seq_len), H = static_cast<double>(o.model.heads);
    const double B = training ? static_cast<double>(o.batch) : 100;
    run::MemoryEstimate e;
    e.parameters = model_config(o).parameter_count();
    // The decoder's layers hold two attentions; the generator's logits [B, T, V] are kept with their softmax.
    e.activations = run::transformer_activations(N, B, T, D, F, H, T) +
                    run::transformer_activations(1.5 * N, B, T, D, F, H, T) + 3 * B * T * V;
    // Additive scores keep tanh(q_i + k_j) and its product with v, [B, H, T, T, d_k] each, per attention.
    if (o.attention == "additive") e.activations += 3 * N * 2 * B * T * T * D;
    return e;
}

// What no single flag's check can see, before any work starts: flags that must
// agree, output paths that can be written and destroy no input, and the memory.
void check_flags(const run::Run& r, const Options& o) {
    run::check_model_flags(o.model);
    run::check_positions_flag(o.positions, o.model);
    if (o.share_embeddings && o.positions == "concatenated")
        throw CLI::ValidationError("--share-embeddings",
                                   "needs embeddings d_model wide, and --positions concatenated makes them narrower");
    if (o.unscaled && o.attention == "additive")
        throw CLI::ValidationError("--unscaled", "scales dot-product scores, and --attention additive has none");
    run::require_batch_per_rank("--batch", o.batch);
    run::check_run_outputs(r.checkpoint.save, o.csv, o.figures);
    run::require_memory("--batch", memory_estimate(o, r.training()), r.training());
}

// Trains (or loads), saves, decodes held-out sequences and draws the figures asked for.
int work(run::Run& r, const Options& o) {
    auto model = models::make_transformer(model_config(o));
    r.announce(fmt::format(
        "{} task: V={} length {} | Transformer N={} d_model={} d_ff={} h={} (d_k={}{}) dropout {} {}-norm ({} "
        "LayerNorm), "
        "{} positions{}, {} parameters | batch {}, {} epochs x {} batches, Adam, {} schedule (warmup {}, lr {})",
        o.task, o.vocab, o.seq_len, o.model.layers, o.model.d_model, o.model.d_ff, o.model.heads,
        o.model.d_model / o.model.heads,
        o.unscaled                  ? ", unscaled"
        : o.attention == "additive" ? ", additive"
                                    : "",
        o.model.dropout, o.norm, o.layer_norm, o.positions, o.share_embeddings ? ", shared embeddings" : "",
        model->parameter_count(), o.batch, o.epochs, o.batches_per_epoch, o.schedule, o.warmup, o.lr));
    r.train_or_load(*model, [&] { train(*model, o, r); });
    if (!r.is_root()) return 0;  // rank 0 evaluates the model every rank holds
    evaluate(*model, o);
    if (!o.figures.empty()) write_figures(*model, o);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    return run::main(argc, argv,
                     {.name = "copy_task",
                      .about = "Train a Transformer on the copy task, then decode held-out sequences.",
                      .saves = "the model, Adam's state, the generators, the loss curve",
                      .presets = {.names = {"default", "annotated", "annotated2022"},
                                  .help =
                                      "default (about 10 seconds on 2 cores), annotated (the Annotated Transformer's "
                                      "run, 2018 post) or annotated2022 (its 2022 revision's run)",
                                  .apply = [&](const std::string& preset) { apply_preset(o, preset); }},
                      .seed = &o.seed,
                      .flags = [&](run::Flags& f) { add_flags(f, o); },
                      .check = [&](run::Run& r) { check_flags(r, o); },
                      .work = [&](run::Run& r) { return work(r, o); }});
}
