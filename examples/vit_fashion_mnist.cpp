// Train a Vision Transformer (002's equations) on Fashion-MNIST and evaluate it
// on the 10,000 test images.
//   ./build/examples/vit_fashion_mnist                   the default run (>= 88% in about 2 minutes on 2 cores)
//   ./build/examples/vit_fashion_mnist --preset long     a longer run aiming at 91%
//   ./build/examples/vit_fashion_mnist --figures figures  attention rollout of test images and the confusion matrix
//   ./build/examples/vit_fashion_mnist --help            every flag
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "autograd/autograd.h"
#include "data/image_batches.h"
#include "run/checkpoint_flags.h"
#include "run/console.h"
#include "run/data_parallel_run.h"
#include "run/figure_files.h"
#include "run/flags.h"
#include "run/interruption.h"
#include "run/load_or_train.h"
#include "run/loss_curve_figure.h"
#include "run/machine_flags.h"
#include "run/memory_budget.h"
#include "run/output_files.h"
#include "run/progress_bar.h"
#include "run/recorded_flags.h"
#include "run/run_program.h"
#include "run/run_state.h"
#include "run/step_boundary.h"
#include "distributed/data_parallel.h"
#include "run/vit_figures.h"
#include "models/attention_rollout.h"
#include "models/vit.h"
#include "nn/checkpoint.h"
#include "nn/clip_grad.h"
#include "nn/loss.h"
#include "nn/lr_schedule.h"
#include "nn/non_finite.h"
#include "nn/optim/adamw.h"

using namespace autograd;

namespace {

struct Options {
    std::string preset = "default";
    std::int64_t patch = 4, d_model = 64, depth = 4, heads = 4, mlp = 128;
    std::string pooling = "cls";
    double dropout = 0.0;
    std::int64_t epochs = 5, batch = 128;
    double lr = 3e-3, weight_decay = 0.05, min_lr = 1e-5, smoothing = 0.1, clip = 1.0;
    std::int64_t warmup = 400;  // steps
    std::uint64_t seed = 1;
    run::MachineFlags machine;
    std::int64_t train_limit = 0;  // 0: all 60,000
    std::string data_dir = "/usr/share/datasets/fashion-mnist";
    std::string figures;
    run::CheckpointFlags checkpoint;
    bool detect_anomaly = false;
};

// The flags a checkpoint records (recorded_flags.h): --load adopts the model's,
// --resume all of them.
const run::FlagGroups kRecorded{
    .model = {"--patch", "--d-model", "--depth", "--heads", "--mlp", "--pooling", "--dropout"},
    .training = {"--epochs", "--batch", "--lr", "--weight-decay", "--warmup", "--min-lr", "--smoothing", "--clip",
                 "--train-limit"},
    .run = {"--seed", "--threads"},
};

void apply_preset(Options& o) {
    if (o.preset == "long") o.epochs = 30, o.d_model = 96, o.mlp = 192, o.heads = 4, o.depth = 6, o.dropout = 0.1;
}

models::ViTConfig model_config(const Options& o) {
    models::ViTConfig c;
    c.patch = o.patch, c.d_model = o.d_model, c.depth = o.depth, c.heads = o.heads, c.mlp = o.mlp;
    c.dropout = o.dropout, c.seed = o.seed, c.pooling = models::parse_pooling(o.pooling);
    return c;
}

// Test accuracy, and the confusion matrix counts[true][predicted].
struct TestResult {
    double accuracy, loss;  // loss: the mean cross-entropy over the test images, unsmoothed
};

TestResult evaluate(const models::ViT& model, data::ImageBatches& test,
                    std::vector<std::vector<std::int64_t>>* confusion) {
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    std::int64_t correct = 0;
    double loss = 0;
    test.reset();
    data::ImageBatch b;
    while (test.next(b)) {
        Tensor logits = model.forward(b.images);
        loss += cross_entropy(logits, b.labels).item() * static_cast<double>(b.labels.numel());
        Tensor pred = argmax(logits, -1);
        for (std::int64_t i = 0; i < pred.numel(); ++i) {
            std::int64_t y = b.labels.data<std::int64_t>()[i], p = pred.data<std::int64_t>()[i];
            correct += y == p;
            if (confusion) (*confusion)[y][p] += 1;
        }
    }
    const auto n = static_cast<double>(test.size());
    return {static_cast<double>(correct) / n, loss / n};
}

// What a resumed run restores beside the weights and AdamW's state: the step,
// the shuffled order and position of the batches, and dropout's generator.
// The run's curves: training loss and learning rate per step, test loss per epoch.
struct Curves {
    run::Curve loss, lr, test;
};

// Every rank's dropout generator is gathered: call on every rank.
nn::RunRecord run_record(const nn::RunRecord& flags, std::int64_t step, const data::ImageBatches& batches,
                         const Curves& curves, const distributed::Communicator& comm) {
    nn::RunRecord r = flags;
    r.tensors["curve.loss"] = run::curve_tensor(curves.loss);
    r.tensors["curve.lr"] = run::curve_tensor(curves.lr);
    r.tensors["curve.test"] = run::curve_tensor(curves.test);
    data::ImageBatches::Position at = batches.position();
    r.tensors["step"] = run::step_tensor(step);
    r.tensors["generator.dropout"] = run::gathered_dropout_state(comm);
    Generator shuffle;
    shuffle.set_state(at.generator);
    r.tensors["generator.shuffle"] = run::generator_tensor(shuffle);
    Tensor order = Tensor::empty({static_cast<std::int64_t>(at.order.size())}, Dtype::int64);
    std::copy(at.order.begin(), at.order.end(), order.data<std::int64_t>());
    r.tensors["batches.order"] = order;
    r.tensors["batches.position"] = run::step_tensor(at.pos);
    return r;
}

std::int64_t restore(const nn::RunRecord& r, const std::string& path, data::ImageBatches& batches, Curves& curves,
                     const distributed::Communicator& comm) {
    std::int64_t step = run::saved_step(r, path);
    curves = {run::curve_of(r, "curve.loss"), run::curve_of(r, "curve.lr"), run::curve_of(r, "curve.test")};
    run::restore_dropout_state(r, path, comm);
    Generator shuffle;
    run::restore_generator(shuffle, r, "generator.shuffle");
    auto order = r.tensors.find("batches.order"), pos = r.tensors.find("batches.position");
    if (order == r.tensors.end() || pos == r.tensors.end() || order->second.dtype() != Dtype::int64 ||
        pos->second.dtype() != Dtype::int64 || pos->second.numel() != 1)
        throw std::runtime_error(fmt::format("{} holds no position in the training images", path));
    const std::int64_t* o = order->second.data<std::int64_t>();
    batches.set_position({shuffle.state(), std::vector<std::int64_t>(o, o + order->second.numel()),
                          pos->second.data<std::int64_t>()[0]});
    return step;
}

// Trains from step 0, or from the checkpoint --resume names, to the last step;
// saves to --save at each --save-every, on a stop signal and at the end.
// Trains from step 0, or from the checkpoint --resume names, to the last step;
// saves to --save at each --save-every, on a stop signal and at the end.
void train(models::ViT& model, data::ImageBatches& train_set, data::ImageBatches& test_set, const Options& o,
           const nn::RunRecord& flags) {
    const distributed::Communicator& comm = distributed::Communicator::world();
    distributed::DataParallel dp(model);  // under mpirun: rank 0's weights everywhere
    nn::optim::AdamW opt(model.parameters(), {.lr = o.lr, .weight_decay = o.weight_decay});
    const std::int64_t per_epoch = train_set.batches_per_epoch(), steps = o.epochs * per_epoch;
    nn::WarmupCosineSchedule schedule(o.lr, std::min(o.warmup, steps - 1), steps, o.min_lr);
    std::int64_t first = 0;
    Curves curves;
    const std::string& resume = o.checkpoint.resume;
    if (!resume.empty()) {
        nn::RunRecord saved;
        nn::load_checkpoint(resume, model, &opt, &saved);
        first = restore(saved, resume, train_set, curves, comm);
        run::say("resumed {} at step {} of {}\n", resume, first, steps);
    }
    run::StepBoundary boundary(o.checkpoint, steps, comm);
    auto start = std::chrono::steady_clock::now();
    std::unique_ptr<run::ProgressBar> bar;
    double running = 0;
    for (std::int64_t step = first + 1; step <= steps; ++step) {
        const std::int64_t epoch = (step - 1) / per_epoch + 1, i = (step - 1) % per_epoch + 1;
        if (i == 1) train_set.reset();  // a new epoch's order
        if (!bar || i == 1) {
            run::say("epoch {}/{}\n", epoch, o.epochs);
            bar = std::make_unique<run::ProgressBar>(per_epoch, "img");
        }
        data::ImageBatch b;
        train_set.next(b);  // the same batch on every rank
        const std::int64_t batch_images = b.labels.numel();
        if (comm.size() > 1) {  // this rank's images of it
            auto [from, to] = dp.share(batch_images);
            b = {narrow(b.images, 0, from, to - from), narrow(b.labels, 0, from, to - from)};
        }
        opt.set_lr(schedule.lr(step));
        opt.zero_grad();
        // An epoch's last batch may leave a rank no image: it adds nothing, and its gradient counts as zeros.
        const bool mine = b.labels.numel() > 0;
        Tensor loss = mine ? cross_entropy(model.forward(b.images), b.labels, -100, o.smoothing) : Tensor();
        const double share = dp.weight(b.labels.numel());
        const double loss_value = comm.sum(mine ? loss.item() * share : 0.0);
        nn::check_finite_loss(loss_value, step);
        if (mine) (comm.size() > 1 ? loss * share : loss).backward();
        dp.sync_gradients();
        nn::check_finite_gradients(model, step);
        nn::clip_grad_norm_(model.parameters(), o.clip);
        opt.step();
        running = i == 1 || step == first + 1 ? loss_value : 0.95 * running + 0.05 * loss_value;
        bar->update(i, batch_images, fmt::format("loss {:.4f}  lr {:.1e}", running, opt.lr()));
        curves.loss.emplace_back(static_cast<double>(step), loss_value);
        curves.lr.emplace_back(static_cast<double>(step), opt.lr());
        if (i == per_epoch && comm.is_root()) {
            const TestResult test = evaluate(model, test_set, nullptr);
            curves.test.emplace_back(static_cast<double>(step), test.loss);
            const double acc = test.accuracy;
            run::say("epoch {} test accuracy {:.2f}%  ({} elapsed)\n", epoch, 100 * acc,
                          run::ProgressBar::clock(
                              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()));
        }
        boundary.after(step, [&](const std::string& path) {
            nn::RunRecord record = run_record(flags, step, train_set, curves, comm);
            if (comm.is_root()) nn::save_checkpoint(path, model, &opt, &record);
        });
    }
    boundary.finish(dp);
    if (comm.is_root() && !o.figures.empty())
        run::write_loss_curve(o.figures, {"vit_fashion_mnist: loss and learning rate", curves.loss, curves.lr,
                                               curves.test, "test loss per epoch"});
}

// Prints the test accuracy and the confusion matrix; returns the matrix.
std::vector<std::vector<std::int64_t>> report(models::ViT& model, data::ImageBatches& test_set) {
    std::vector<std::vector<std::int64_t>> confusion(10, std::vector<std::int64_t>(10, 0));
    double acc = evaluate(model, test_set, &confusion).accuracy;
    run::say("\ntest accuracy {:.2f}% on {} images\n\n{:<12} {:>8}   confusion (rows: true class, columns: predicted)\n",
               100 * acc, test_set.size(), "class", "accuracy");
    for (int y = 0; y < 10; ++y) {
        std::int64_t total = 0;
        for (auto c : confusion[y]) total += c;
        std::string row;
        for (auto c : confusion[y]) row += fmt::format("{:>5}", c);
        run::say("{:<12} {:>7.1f}%  {}\n", data::kFashionMnistClasses[y],
                   100.0 * static_cast<double>(confusion[y][y]) / static_cast<double>(std::max<std::int64_t>(total, 1)), row);
    }
    return confusion;
}

// Attention rollout over 8 test images, the confusion matrix and the principal components of the
// patch-embedding filters, as DIR/{rollout,confusion,embedding_components}.{png,svg}.
void write_figures(const models::ViT& model, const data::ImageSet& test, double mean, double std,
                   const std::vector<std::vector<std::int64_t>>& confusion, const std::string& dir) {
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    const std::int64_t n = 8;
    Tensor images = (narrow(test.images, 0, 0, n) - mean) / std;
    Tensor pred = argmax(model.forward(images), -1);
    Tensor rollout = models::attention_rollout(model);  // [n, N]
    std::vector<run::RolloutExample> shown;
    for (std::int64_t i = 0; i < n; ++i)
        shown.push_back({select(select(test.images, 0, i), 0, 0), select(rollout, 0, i),
                         data::kFashionMnistClasses[static_cast<std::int64_t>(test.labels.at({i}))],
                         data::kFashionMnistClasses[pred.data<std::int64_t>()[i]]});
    const std::vector<std::string> classes(std::begin(data::kFashionMnistClasses), std::end(data::kFashionMnistClasses));
    for (const auto& [name, figure] : {std::pair{"rollout", run::rollout_figure(shown, model.config.pooling == models::Pooling::cls
                                                                                      ? "the [CLASS] row"
                                                                                      : "the mean of the rows")},
                                       std::pair{"confusion", run::confusion_figure(confusion, classes)},
                                       std::pair{"embedding_components",
                                                 run::embedding_components_figure(model.embed->proj->weight, model.embed->patch)}})
        for (const std::string& path : run::write_figure(dir + "/" + name, figure)) run::say("  {}\n", path);
}

// The flags; the preset, read first, sets the defaults the other flags override.
void add_flags(CLI::App& app, Options& o, int argc, char** argv) {
    app.option_defaults()->always_capture_default();  // the values a checkpoint records
    app.add_option("--preset", o.preset, "default (>= 88% in about 2 minutes) or long (aims at 91%)")
        ->check(CLI::IsMember({"default", "long"}));
    o.preset = run::peek_preset(argc, argv, o.preset);  // the preset sets defaults, flags override them
    apply_preset(o);
    app.add_option("--patch", o.patch, "patch size P (divides 28)")->check(CLI::IsMember({1, 2, 4, 7, 14, 28}));
    app.add_option("--d-model", o.d_model, "token width D")->check(CLI::Range(2, 4096));
    app.add_option("--depth", o.depth, "encoder layers L")->check(CLI::Range(1, 64));
    app.add_option("--heads", o.heads, "attention heads (divide D)")->check(CLI::Range(1, 64));
    app.add_option("--mlp", o.mlp, "MLP hidden width")->check(CLI::Range(1, 16384));
    app.add_option("--pooling", o.pooling,
                   "cls: the head reads a [CLASS] token; mean: the mean of the patch outputs, no [CLASS] token (002)")
        ->check(CLI::IsMember({"cls", "mean"}));
    app.add_option("--dropout", o.dropout, "dropout")->check(run::finite_range(0.0, 0.99));
    app.add_option("--epochs", o.epochs, "epochs")->check(CLI::Range(1, 10000));
    app.add_option("--batch", o.batch, "images per batch")->check(CLI::Range(1, 60000));
    app.add_option("--lr", o.lr, "peak learning rate (AdamW)")->check(run::finite_positive());
    app.add_option("--weight-decay", o.weight_decay, "AdamW's decoupled weight decay")->check(run::finite_range(0.0, 10.0));
    app.add_option("--warmup", o.warmup, "linear warmup steps before the cosine decay")->check(CLI::Range(0, 10000000));
    app.add_option("--min-lr", o.min_lr, "learning rate at the end of the cosine")->check(run::finite_range(0.0, 1.0));
    app.add_option("--smoothing", o.smoothing, "label smoothing")->check(run::finite_range(0.0, 0.99));
    app.add_option("--clip", o.clip, "gradient clipping: max global norm")->check(run::finite_positive());
    app.add_option("--seed", o.seed, "seed of initialisation and shuffling")->check(run::seed_value());
    run::add_machine_flags(app, o.machine);
    app.add_option("--train-limit", o.train_limit, "train on the first N images only (0: all)")->check(CLI::Range(0, 60000));
    app.add_option("--data", o.data_dir, "folder of the gzipped IDX files");
    run::add_checkpoint_flags(app, o.checkpoint, "the model, AdamW's state, the generators, the data's position");
    app.add_option("--figures", o.figures,
                   "draw the attention rollout of 8 test images and the confusion matrix into this folder (PNG and SVG)")
        ->check(run::path_value());
    app.add_flag("--detect-anomaly", o.detect_anomaly,
                 "check every op's output and gradient, and name the first op that makes a NaN or an infinity (slow)");
}

// The bytes a run holds: AdamW's training step, or a test batch of 500.
run::MemoryEstimate memory_estimate(const Options& o, bool training) {
    const double P = static_cast<double>(o.patch), N = (28 / P) * (28 / P) + (o.pooling == "cls" ? 1 : 0),
                 D = static_cast<double>(o.d_model), F = static_cast<double>(o.mlp), L = static_cast<double>(o.depth), H = static_cast<double>(o.heads);
    const double B = static_cast<double>(std::max<std::int64_t>(training ? o.batch : 0, 500));
    run::MemoryEstimate e;
    e.parameters = P * P * D + N * D + L * (4 * D * D + 2 * D * F) + 10 * D;
    e.activations = B * 28 * 28 + run::transformer_activations(L, B, N, D, F, H, N);
    return e;
}

// What no single flag's check can see, before any work starts: the checkpoint
// read (and the flags it records, adopted or refused), flags that must agree,
// output paths that can be written and destroy no input, and the memory.
void check_flags(CLI::App& app, Options& o, std::vector<std::string>& adopted) {
    run::check_checkpoint_flags(app, o.checkpoint, "vit_fashion_mnist", kRecorded, adopted);
    if (o.d_model % o.heads != 0) throw CLI::ValidationError("--heads", "must divide --d-model");
    run::require_batch_per_rank("--batch", o.batch);
    run::check_output_file("--save", o.checkpoint.save);
    run::check_output_folder("--figures", o.figures);
    run::require_memory("--batch", memory_estimate(o, o.checkpoint.load.empty()), o.checkpoint.load.empty());
}

// Loads Fashion-MNIST, trains (or loads), saves, reports test accuracy and draws the figures asked for.
int work(const Options& o, const nn::RunRecord& flags, const std::vector<std::string>& adopted) {
    const distributed::Communicator& comm = distributed::Communicator::world();
    run::seed_dropout(o.seed, comm);
    data::ImageSet train_images = data::load_fashion_mnist(data::Split::train, o.data_dir);
    data::ImageSet test_images = data::load_fashion_mnist(data::Split::test, o.data_dir);
    // Normalised with the whole training set's statistics, so a checkpoint
    // sees the same inputs whatever --train-limit it was trained with.
    auto [mean, std] = data::pixel_statistics(train_images);
    if (o.train_limit > train_images.labels.numel()) {
        fmt::print(stderr, "vit_fashion_mnist: --train-limit: {} is more than the {} training images in {}\n",
                   o.train_limit, train_images.labels.numel(), o.data_dir);
        return 2;
    }
    if (o.train_limit > 0) {
        train_images.images = narrow(train_images.images, 0, 0, o.train_limit);
        train_images.labels = narrow(train_images.labels, 0, 0, o.train_limit);
    }
    data::ImageBatches train_set(train_images, o.batch, mean, std, true, o.seed);
    data::ImageBatches test_set(test_images, 500, mean, std, false, 0);
    models::ViT model(model_config(o));
    run::say("ViT on Fashion-MNIST: {} training / {} test images | patch {} ({} patches), {} pooling, D={} L={} "
               "heads={} MLP={} dropout {}, {} parameters | AdamW lr {} wd {}, warmup {} + cosine, smoothing {}, batch {}, "
               "{} epochs | {}\n",
               train_set.size(), test_set.size(), o.patch, model.embed->n_patches,
               o.pooling == "cls" ? "[CLASS]" : "mean", o.d_model, o.depth, o.heads,
               o.mlp, o.dropout, model.parameter_count(), o.lr, o.weight_decay, o.warmup, o.smoothing, o.batch,
               o.epochs, run::machine_summary(o.machine));
    run::say_adopted(o.checkpoint, adopted);
    if (o.checkpoint.load.empty()) {
        double seconds = run::timed("trained", [&] { train(model, train_set, test_set, o, flags); });
        if (o.checkpoint.resume.empty())
            run::say("{:.0f} images/s, including the per-epoch test passes\n",
                          static_cast<double>(o.epochs * train_set.size()) / seconds);
    } else {
        run::load_model(model, o.checkpoint, flags);
    }
    if (!comm.is_root()) return 0;  // rank 0 evaluates the model every rank holds
    const auto confusion = report(model, test_set);
    if (!o.figures.empty()) {
        run::say("\nfigures written:\n");
        write_figures(model, test_images, mean, std, confusion, o.figures);
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    run::join_job();  // under mpirun: one rank of a data-parallel job
    Options o;
    CLI::App app{"Train a Vision Transformer on Fashion-MNIST and evaluate it on the test set."};
    add_flags(app, o, argc, argv);
    std::vector<std::string> adopted;
    if (int status = run::parse_flags(app, argc, argv, "vit_fashion_mnist", [&] { check_flags(app, o, adopted); });
        status >= 0)
        return status;
    nn::RunRecord flags;
    run::record_flags(app, "vit_fashion_mnist", kRecorded.all(), flags);
    return run::run_program("vit_fashion_mnist", o.detect_anomaly, [&] {
        run::apply_machine_flags(o.machine, argv);
        return work(o, flags, adopted);
    });
}
