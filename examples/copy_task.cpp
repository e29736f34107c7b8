// The copy task (001's full post, "A First Example"): train an encoder-decoder Transformer
// to copy random sequences, then decode held-out ones greedily.
//   ./build/examples/copy_task                     the default preset (about 10 seconds on 2 cores)
//   ./build/examples/copy_task --preset annotated  the Annotated Transformer's run (2018 post)
//   ./build/examples/copy_task --preset annotated2022  its run in the 2022 revision (about 3 minutes)
//   ./build/examples/copy_task --help              every flag
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "autograd/autograd.h"
#include "data/copy_task.h"
#include "run/attention_figures.h"
#include "run/checkpoint_flags.h"
#include "run/console.h"
#include "run/data_parallel_run.h"
#include "run/flags.h"
#include "run/interruption.h"
#include "run/load_or_train.h"
#include "run/machine_flags.h"
#include "run/loss_curve_figure.h"
#include "run/memory_budget.h"
#include "run/output_files.h"
#include "run/progress_bar.h"
#include "run/recorded_flags.h"
#include "run/run_program.h"
#include "run/run_state.h"
#include "run/step_boundary.h"
#include "distributed/data_parallel.h"
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
    run::MachineFlags machine;
    std::int64_t eval_sequences = 1000, show = 5;
    std::string csv, figures;
    run::CheckpointFlags checkpoint;
    bool detect_anomaly = false;
    bool share_embeddings = false;  // 001 "Embeddings and Softmax"; 001's own make_model does not tie
};

// The flags a checkpoint records (recorded_flags.h): --load adopts the model's,
// --resume all of them.
const run::FlagGroups kRecorded{
    .model = {"--vocab", "--seq-len", "--layers", "--d-model", "--d-ff", "--heads", "--dropout", "--norm",
              "--layer-norm", "--share-embeddings"},
    .training = {"--batch", "--epochs", "--batches-per-epoch", "--schedule", "--lr", "--warmup", "--smoothing"},
    .run = {"--seed", "--threads"},
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

// What a resumed run restores beside the weights and Adam's state: the step,
// the generators of the batches and of dropout, and the curves so far.
struct Progress {
    std::int64_t step = 0;
    Generator batches;
    run::Curve loss, lr, eval;
};

// Every rank's dropout generator is gathered: call on every rank.
nn::RunRecord run_record(const nn::RunRecord& flags, const Progress& p, const distributed::Communicator& comm) {
    nn::RunRecord r = flags;
    r.tensors["step"] = run::step_tensor(p.step);
    r.tensors["generator.batches"] = run::generator_tensor(p.batches);
    r.tensors["generator.dropout"] = run::gathered_dropout_state(comm);
    r.tensors["curve.loss"] = run::curve_tensor(p.loss);
    r.tensors["curve.lr"] = run::curve_tensor(p.lr);
    r.tensors["curve.eval"] = run::curve_tensor(p.eval);
    return r;
}

void restore(Progress& p, const nn::RunRecord& r, const std::string& path, const distributed::Communicator& comm) {
    p.step = run::saved_step(r, path);
    run::restore_generator(p.batches, r, "generator.batches");
    run::restore_dropout_state(r, path, comm);
    p.loss = run::curve_of(r, "curve.loss");
    p.lr = run::curve_of(r, "curve.lr");
    p.eval = run::curve_of(r, "curve.eval");
}

// The loss curve as a CSV (step,loss,lr,eval_loss).
void write_curves(const Progress& p, const std::string& csv) {
    std::string text = "step,loss,lr,eval_loss\n";
    for (std::size_t i = 0; i < p.loss.size(); ++i)
        text += fmt::format("{},{},{},\n", p.loss[i].first, p.loss[i].second, p.lr[i].second);
    for (const auto& [step, loss] : p.eval) text += fmt::format("{},,,{}\n", step, loss);
    run::write_output(csv, text);
    run::say("loss curve written to {}\n", csv);
}

// Trains from step 0, or from the checkpoint --resume names, to the last step;
// saves to --save at each --save-every, on a stop signal and at the end.
void train(models::Transformer& model, const Options& o, const nn::RunRecord& flags) {
    const distributed::Communicator& comm = distributed::Communicator::world();
    distributed::DataParallel dp(model);  // under mpirun: rank 0's weights everywhere
    nn::optim::Adam opt(model.parameters(), {.lr = 0, .beta1 = 0.9, .beta2 = o.beta2, .eps = o.adam_eps});
    const std::int64_t steps = o.epochs * o.batches_per_epoch;
    nn::WarmupSchedule warmup(o.d_model, o.warmup, 1.0);
    std::unique_ptr<nn::WarmupCosineSchedule> cosine;
    if (o.schedule == "cosine")
        cosine = std::make_unique<nn::WarmupCosineSchedule>(o.lr, std::min(o.warmup, steps - 1), steps);
    auto lr_at = [&](std::int64_t step) { return cosine ? cosine->lr(step) : o.lr * warmup.lr(step); };
    nn::LabelSmoothingLoss criterion(o.vocab, data::kCopyPad, o.smoothing);
    Progress p{0, Generator(o.seed), {}, {}, {}};
    const std::string& resume = o.checkpoint.resume;
    if (!resume.empty()) {
        nn::RunRecord saved;
        nn::load_checkpoint(resume, model, &opt, &saved);
        restore(p, saved, resume, comm);
        run::say("resumed {} at step {} of {}\n", resume, p.step, steps);
    }
    run::StepBoundary boundary(o.checkpoint, steps, comm);
    std::unique_ptr<run::ProgressBar> bar;
    const auto [first, last] = dp.share(o.batch);  // this rank's sequences of every batch
    for (std::int64_t step = p.step + 1; step <= steps; ++step) {
        const std::int64_t epoch = (step - 1) / o.batches_per_epoch + 1, i = (step - 1) % o.batches_per_epoch + 1;
        if (!bar || i == 1) {
            run::say("epoch {}/{}\n", epoch, o.epochs);
            bar = std::make_unique<run::ProgressBar>(o.batches_per_epoch, "tok");
        }
        data::CopyBatch b = data::copy_task_batch(o.vocab, o.seq_len, o.batch, p.batches);  // the same on every rank
        const std::int64_t batch_tokens = b.ntokens;
        if (comm.size() > 1) b = data::copy_task_rows(b, first, last);
        opt.zero_grad();
        Tensor loss = batch_loss(model, b, criterion);  // the mean over this rank's tokens
        const double share = dp.weight(b.ntokens);
        const double loss_value = comm.sum(loss.item() * share);  // the batch's mean
        nn::check_finite_loss(loss_value, step);
        (comm.size() > 1 ? loss * share : loss).backward();
        dp.sync_gradients();
        nn::check_finite_gradients(model, step);
        opt.set_lr(lr_at(step));
        opt.step();
        p.step = step;
        bar->update(i, batch_tokens * 2,  // source and target tokens
                    fmt::format("loss {:.4f}  lr {:.1e}", loss_value, opt.lr()));
        p.loss.emplace_back(static_cast<double>(step), loss_value);
        p.lr.emplace_back(static_cast<double>(step), opt.lr());
        if (i == o.batches_per_epoch && comm.is_root()) {
            double ev = eval_loss(model, o, criterion);
            run::say("epoch {} eval loss {:.4f}  ({} of {} steps)\n", epoch, ev, step, steps);
            p.eval.emplace_back(static_cast<double>(step), ev);
        }
        boundary.after(step, [&](const std::string& path) {
            nn::RunRecord record = run_record(flags, p, comm);
            if (comm.is_root()) nn::save_checkpoint(path, model, &opt, &record);
        });
    }
    boundary.finish(dp);
    if (!comm.is_root()) return;
    if (!o.csv.empty()) write_curves(p, o.csv);
    if (!o.figures.empty())
        run::write_loss_curve(o.figures, {"copy_task: loss and learning rate", p.loss, p.lr, p.eval, "held-out loss per epoch"});
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
            if (!shown && i < o.show) run::say("  input {}\n  output{}   {}\n", in, out, match ? "match" : "DIFFERS");
        }
        shown = true;
        seen += n;
    }
    run::say("exact-match accuracy: {}/{} = {:.1f}% of held-out sequences copied exactly\n", correct, seen,
               100.0 * static_cast<double>(correct) / static_cast<double>(seen));
}

// The attention maps of the first held-out sequence, decoded by the model itself.
void write_figures(models::Transformer& model, const Options& o) {
    Generator gen(o.seed + 1000003);  // the same held-out stream evaluate() draws from
    data::CopyBatch b = data::copy_task_batch(o.vocab, o.seq_len, 1, gen);
    Tensor decoded = models::greedy_decode(model, b.src, nn::padding_mask(b.src, data::kCopyPad), o.seq_len, 1).tokens;
    run::say("attention maps (layers down, heads across; query tokens down, key tokens across) written:\n");
    for (const std::string& path : run::write_attention_figures(model, b.src, decoded, data::kCopyPad, o.figures))
        run::say("  {}\n", path);
}

// The flags; the preset, read first, sets the defaults the other flags override.
void add_flags(CLI::App& app, Options& o, int argc, char** argv) {
    app.option_defaults()->always_capture_default();  // the values a checkpoint records
    app.add_option("--preset", o.preset,
                   "default (about 10 seconds on 2 cores), annotated (the Annotated Transformer's run, 2018 post) or "
                   "annotated2022 (its 2022 revision's run)")
        ->check(CLI::IsMember({"default", "annotated", "annotated2022"}));
    o.preset = run::peek_preset(argc, argv, o.preset);  // the preset sets defaults, flags override them
    apply_preset(o);
    app.add_option("--vocab", o.vocab, "vocabulary size V (0 pads, symbols 1..V-1)")->check(CLI::Range(3, 100000));
    app.add_option("--seq-len", o.seq_len, "sequence length, start symbol included")->check(CLI::Range(2, 4096));
    app.add_option("--layers", o.layers, "N, layers in each stack")->check(CLI::Range(1, 64));
    app.add_option("--d-model", o.d_model, "model width")->check(CLI::Range(2, 8192));
    app.add_option("--d-ff", o.d_ff, "feed-forward width")->check(CLI::Range(1, 65536));
    app.add_option("--heads", o.heads, "attention heads h (must divide d_model)")->check(CLI::Range(1, 256));
    app.add_option("--dropout", o.dropout, "dropout probability")->check(run::finite_range(0.0, 0.99));
    app.add_option("--norm", o.norm, "residual form: pre or post (003)")->check(CLI::IsMember({"pre", "post"}));
    app.add_option("--layer-norm", o.layer_norm,
                   "standard ((a - mu) / sqrt(var + 1e-5), 003) or annotated (001: (a - mu) / (unbiased std + 1e-6))")
        ->check(CLI::IsMember({"standard", "annotated"}));
    app.add_option("--batch", o.batch, "sequences per batch")->check(CLI::Range(1, 100000));
    app.add_option("--epochs", o.epochs, "epochs")->check(CLI::Range(1, 100000));
    app.add_option("--batches-per-epoch", o.batches_per_epoch, "batches per epoch")->check(CLI::Range(1, 1000000));
    app.add_option("--schedule", o.schedule, "warmup (001: lr = factor * d_model^-0.5 * min(s^-0.5, s w^-1.5)) or cosine")
        ->check(CLI::IsMember({"warmup", "cosine"}));
    app.add_option("--lr", o.lr, "warmup: the factor; cosine: the peak learning rate")
        ->check(run::finite_positive());
    app.add_option("--warmup", o.warmup, "warmup steps of the schedule")->check(CLI::Range(1, 100000000));
    app.add_flag("--share-embeddings", o.share_embeddings,
                 "one matrix for the source and target embeddings and the generator (001 \"Embeddings and Softmax\")");
    app.add_option("--smoothing", o.smoothing, "label smoothing")->check(run::finite_range(0.0, 0.99));
    app.add_option("--seed", o.seed, "seed of initialisation and data")->check(run::seed_value());
    run::add_machine_flags(app, o.machine);
    app.add_option("--eval-sequences", o.eval_sequences, "held-out sequences for the accuracy")->check(CLI::Range(1, 10000000));
    app.add_option("--show", o.show, "held-out sequences to print")->check(CLI::Range(0, 100));
    run::add_checkpoint_flags(app, o.checkpoint, "the model, Adam's state, the generators, the loss curve");
    app.add_option("--csv", o.csv, "write the loss curve (step,loss,lr,eval_loss) here")
        ->check(run::path_value());
    app.add_option("--figures", o.figures,
                   "after training, draw the loss curve and the attention maps of a held-out sequence into this folder (PNG and SVG)")
        ->check(run::path_value());
    app.add_flag("--detect-anomaly", o.detect_anomaly,
                 "check every op's output and gradient, and name the first op that makes a NaN or an infinity (slow)");
}

// The bytes a run holds: Adam's training step, or decoding 100 sequences.
run::MemoryEstimate memory_estimate(const Options& o, bool training) {
    const auto N = static_cast<double>(o.layers), D = static_cast<double>(o.d_model), F = static_cast<double>(o.d_ff),
               V = static_cast<double>(o.vocab), T = static_cast<double>(o.seq_len), H = static_cast<double>(o.heads);
    const double B = training ? static_cast<double>(o.batch) : 100;
    run::MemoryEstimate e;
    e.parameters = 3 * V * D + N * (4 * D * D + 2 * D * F) + N * (8 * D * D + 2 * D * F);
    // The decoder's layers hold two attentions; the generator's logits [B, T, V] are kept with their softmax.
    e.activations = run::transformer_activations(N, B, T, D, F, H, T) +
                    run::transformer_activations(1.5 * N, B, T, D, F, H, T) + 3 * B * T * V;
    return e;
}

// What no single flag's check can see, before any work starts: the checkpoint
// read (and the flags it records, adopted or refused), flags that must agree,
// output paths that can be written and destroy no input, and the memory.
void check_flags(CLI::App& app, Options& o, std::vector<std::string>& adopted) {
    run::check_checkpoint_flags(app, o.checkpoint, "copy_task", kRecorded, adopted);
    if (o.d_model % o.heads != 0) throw CLI::ValidationError("--heads", "must divide --d-model");
    run::require_batch_per_rank("--batch", o.batch);
    run::check_output_file("--save", o.checkpoint.save);
    run::check_output_file("--csv", o.csv);
    run::check_output_folder("--figures", o.figures);
    run::require_memory("--batch", memory_estimate(o, o.checkpoint.load.empty()), o.checkpoint.load.empty());
}

// Trains (or loads), saves, decodes held-out sequences and draws the figures asked for.
int work(const Options& o, const nn::RunRecord& flags, const std::vector<std::string>& adopted) {
    const distributed::Communicator& comm = distributed::Communicator::world();
    run::seed_dropout(o.seed, comm);
    auto model = models::make_transformer(model_config(o));
    run::say("copy task: V={} length {} | Transformer N={} d_model={} d_ff={} h={} dropout {} {}-norm ({} LayerNorm){}, "
               "{} parameters | batch {}, {} epochs x {} batches, Adam, {} schedule (warmup {}, lr {}) | {}\n",
               o.vocab, o.seq_len, o.layers, o.d_model, o.d_ff, o.heads, o.dropout, o.norm, o.layer_norm,
               o.share_embeddings ? ", shared embeddings" : "", model->parameter_count(), o.batch, o.epochs,
               o.batches_per_epoch, o.schedule, o.warmup, o.lr, run::machine_summary(o.machine));
    run::say_adopted(o.checkpoint, adopted);
    if (o.checkpoint.load.empty())
        run::timed("trained", [&] { train(*model, o, flags); });
    else
        run::load_model(*model, o.checkpoint, flags);
    if (!comm.is_root()) return 0;  // rank 0 evaluates the model every rank holds
    evaluate(*model, o);
    if (!o.figures.empty()) write_figures(*model, o);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    run::join_job();  // under mpirun: one rank of a data-parallel job
    Options o;
    CLI::App app{"Train a Transformer on the copy task, then decode held-out sequences."};
    add_flags(app, o, argc, argv);
    std::vector<std::string> adopted;
    if (int status = run::parse_flags(app, argc, argv, "copy_task", [&] { check_flags(app, o, adopted); });
        status >= 0)
        return status;
    nn::RunRecord flags;
    run::record_flags(app, "copy_task", kRecorded.all(), flags);
    return run::run_program("copy_task", o.detect_anomaly, [&] {
        run::apply_machine_flags(o.machine, argv);
        return work(o, flags, adopted);
    });
}
