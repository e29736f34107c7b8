// Train a Vision Transformer (002's equations) on Fashion-MNIST and evaluate it
// on the 10,000 test images.
//   ./build/examples/vit_fashion_mnist                   the default run (>= 88% in about 2 minutes on 2 cores)
//   ./build/examples/vit_fashion_mnist --preset long     a longer run aiming at 91%
//   ./build/examples/vit_fashion_mnist --figures figures  attention rollout of test images and the confusion matrix
//   ./build/examples/vit_fashion_mnist --help            every flag
#include <algorithm>
#include <chrono>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "lectern/autograd/autograd.h"
#include "lectern/data/image_batches.h"
#include "lectern/models/attention_rollout.h"
#include "lectern/models/vit.h"
#include "lectern/nn/loss.h"
#include "lectern/nn/lr_schedule.h"
#include "lectern/nn/optim/adamw.h"
#include "lectern/nn/optim/param_groups.h"
#include "lectern/run/flags/adamw_flags.h"
#include "lectern/run/training/classification_tally.h"
#include "lectern/run/shell/console.h"
#include "lectern/run/shell/data_parallel_run.h"
#include "lectern/run/figures/figure_files.h"
#include "lectern/run/flags/flags.h"
#include "lectern/run/shell/memory_budget.h"
#include "lectern/run/flags/model_flags.h"
#include "lectern/run/shell/output_files.h"
#include "lectern/run/shell/program.h"
#include "lectern/run/shell/progress_bar.h"
#include "lectern/run/training/run_state.h"
#include "lectern/run/training/training_loop.h"
#include "lectern/run/figures/vit_figures.h"

using namespace autograd;

namespace {

struct Options {
    std::int64_t patch = 4;
    run::ModelFlags model{.layers = 4,
                          .d_model = 64,
                          .heads = 4,
                          .d_ff = 128,
                          .dropout = 0.0};  // layers: L, d_ff: the MLP
    std::string pooling = "cls";
    std::int64_t epochs = 5, batch = 128;
    run::AdamWFlags adamw{.lr = 3e-3, .weight_decay = 0.05, .clip = 1.0};
    double min_lr = 1e-5, smoothing = 0.1;
    std::int64_t warmup = 400;  // steps
    std::uint64_t seed = 1;
    std::int64_t train_limit = 0;  // 0: all 60,000
    std::string data_dir = "/usr/share/datasets/fashion-mnist";
    std::string csv, figures;
};

void apply_preset(Options& o, const std::string& preset) {
    if (preset == "long") {
        o.epochs = 30;
        o.model = {.layers = 6, .d_model = 96, .heads = 4, .d_ff = 192, .dropout = 0.1};
    }
}

models::ViTConfig model_config(const Options& o) {
    models::ViTConfig c;
    c.patch = o.patch, c.d_model = o.model.d_model, c.depth = o.model.layers, c.heads = o.model.heads;
    c.mlp = o.model.d_ff, c.dropout = o.model.dropout, c.seed = o.seed, c.pooling = models::parse_pooling(o.pooling);
    return c;
}

// The model on every test image: accuracy, mean cross-entropy (unsmoothed) and the confusion matrix.
run::ClassificationTally evaluate(const models::ViT& model, data::ImageBatches& test) {
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    run::ClassificationTally tally(10);
    test.reset();
    data::ImageBatch b;
    while (test.next(b)) tally.add(model.forward(b.images), b.labels);
    return tally;
}

// Trains from step 0, or from the checkpoint --resume names, to the last step
// (run::TrainingLoop: it saves, resumes, stops on signals and shares the
// batches between the ranks of an mpirun job); the test set is scored after
// each epoch.
void train(models::ViT& model, data::ImageBatches& train_set, data::ImageBatches& test_set, const Options& o,
           run::Run& r) {
    nn::optim::AdamW opt(nn::optim::weight_decay_groups(model, o.adamw.weight_decay), {.lr = o.adamw.lr});
    const std::int64_t per_epoch = train_set.batches_per_epoch(), steps = o.epochs * per_epoch;
    nn::WarmupCosineSchedule schedule(o.adamw.lr, std::min(o.warmup, steps - 1), steps, o.min_lr);
    run::TrainingLoop loop(model, opt,
                           {.steps = steps,
                            .epoch_steps = per_epoch,
                            .unit = "img",
                            .lr = [&](std::int64_t step) { return schedule.lr(step); },
                            .clip = o.adamw.clip},
                           r);
    loop.keep([&](nn::RunRecord& saved) { saved.tensors["batches"] = train_set.state(); },  // where the epoch stands
              [&](const nn::RunRecord& saved, const std::string& path) {
                  const auto it = saved.tensors.find("batches");
                  if (it == saved.tensors.end())
                      throw std::runtime_error(fmt::format("{} holds no position in the training images", path));
                  try {
                      train_set.set_state(it->second);
                  } catch (const Error& e) {
                      throw std::runtime_error(fmt::format("{}: the training images' position: {}", path, e.what()));
                  }
              });
    const auto start = std::chrono::steady_clock::now();
    loop.evaluate = [&](std::int64_t epoch, std::int64_t step) {
        const run::ClassificationTally test = evaluate(model, test_set);
        loop.curve("test").emplace_back(static_cast<double>(step), test.loss());
        run::say("epoch {} test accuracy {:.2f}%  ({} elapsed)\n", epoch, 100 * test.accuracy(),
                 run::ProgressBar::clock(
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()));
    };
    loop.run([&](std::int64_t step) {
        if ((step - 1) % per_epoch == 0) train_set.reset();  // a new epoch's order
        data::ImageBatch b;
        train_set.next(b);  // the same batch on every rank
        const std::int64_t batch_images = b.labels.numel();
        const auto [from, to] = loop.share(batch_images);  // this rank's images of it
        // An epoch's last batch may leave a rank no image: it adds nothing, and its gradient counts as zeros.
        if (from == to) return run::StepLoss{Tensor(), 0, batch_images};
        Tensor images = narrow(b.images, 0, from, to - from), labels = narrow(b.labels, 0, from, to - from);
        return run::StepLoss{cross_entropy(model.forward(images), labels, -100, o.smoothing), to - from, batch_images};
    });
    loop.finish({"vit_fashion_mnist: loss and learning rate", "test", "test loss per epoch"}, o.csv, o.figures);
}

// Prints the test accuracy and the confusion matrix; returns the matrix.
run::Confusion report(models::ViT& model, data::ImageBatches& test_set) {
    const run::ClassificationTally test = evaluate(model, test_set);
    const std::vector<std::string> names(data::kFashionMnistClasses, data::kFashionMnistClasses + 10);
    run::say("\ntest accuracy {:.2f}% on {} images\n\n{}", 100 * test.accuracy(), test_set.size(),
             run::class_table("class", names, {}, {{"accuracy", &test.confusion()}}));
    return test.confusion();
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
    const std::vector<std::string> classes(std::begin(data::kFashionMnistClasses),
                                           std::end(data::kFashionMnistClasses));
    for (const auto& [name, figure] :
         {std::pair{"rollout",
                    run::rollout_figure(shown, model.config.pooling == models::Pooling::cls ? "the [CLASS] row"
                                                                                            : "the mean of the rows")},
          std::pair{"confusion", run::confusion_figure(confusion, classes)},
          std::pair{"embedding_components",
                    run::embedding_components_figure(model.embed->proj->weight, model.embed->patch)}})
        for (const std::string& path : run::write_figure(dir + "/" + name, figure)) run::say("  {}\n", path);
}

// The flags, in the groups a checkpoint records (run/flags/flag_groups.h). --data
// is not recorded: it says where the images are, not which (the same
// Fashion-MNIST wherever it is installed).
void add_flags(run::Flags& f, Options& o) {
    run::FlagGroup model = f.group("Model", run::Recorded::model);
    model.add("--patch", o.patch, "patch size P (divides 28)")->check(CLI::IsMember({1, 2, 4, 7, 14, 28}));
    run::add_model_flags(model, o.model, {"--depth", "encoder layers L"});
    f.app().get_option("--d-ff")->description("the MLP's hidden width");
    model
        .add("--pooling", o.pooling,
             "cls: the head reads a [CLASS] token; mean: the mean of the patch outputs, no [CLASS] token (002)")
        ->check(CLI::IsMember({"cls", "mean"}));

    run::FlagGroup training = f.group("Training", run::Recorded::training);
    training.add("--epochs", o.epochs, "epochs")->check(CLI::Range(1, 10000));
    training.add("--batch", o.batch, "images per batch")->check(CLI::Range(1, 60000));
    run::add_adamw_flags(training, o.adamw, "peak learning rate (AdamW)");
    training.add("--warmup", o.warmup, "linear warmup steps before the cosine decay")->check(CLI::Range(0, 10000000));
    training.add("--min-lr", o.min_lr, "learning rate at the end of the cosine")->check(run::finite_range(0.0, 1.0));
    training.add("--smoothing", o.smoothing, "label smoothing")->check(run::finite_range(0.0, 0.99));
    training.add("--train-limit", o.train_limit, "train on the first N images only (0: all)")
        ->check(CLI::Range(0, 60000));
    f.group("Run", run::Recorded::run)
        .add("--seed", o.seed, "seed of initialisation and shuffling")
        ->check(run::seed_value());

    run::FlagGroup files = f.group("Data and output", run::Recorded::none);
    files.add("--data", o.data_dir, "folder of the gzipped IDX files")->check(run::path_value());
    files.add("--csv", o.csv, "write the curves (step,loss,lr,test: the test loss after each epoch) here")
        ->check(run::path_value());
    files
        .add("--figures", o.figures,
             "draw the loss curve, the attention rollout of 8 test images and the confusion matrix into this folder "
             "(PNG and SVG)")
        ->check(run::path_value());
}

// The bytes a run holds: AdamW's training step, or a test batch of 500.
run::MemoryEstimate memory_estimate(const Options& o, bool training) {
    const double P = static_cast<double>(o.patch), N = (28 / P) * (28 / P) + (o.pooling == "cls" ? 1 : 0),
                 D = static_cast<double>(o.model.d_model), F = static_cast<double>(o.model.d_ff),
                 L = static_cast<double>(o.model.layers), H = static_cast<double>(o.model.heads);
    const double B = static_cast<double>(std::max<std::int64_t>(training ? o.batch : 0, 500));
    run::MemoryEstimate e;
    e.parameters = model_config(o).parameter_count();
    e.activations = B * 28 * 28 + run::transformer_activations(L, B, N, D, F, H, N);
    return e;
}

// What no single flag's check can see, before any work starts: flags that must
// agree, output paths that can be written and destroy no input, and the memory.
void check_flags(const run::Run& r, const Options& o) {
    run::check_model_flags(o.model);
    run::require_batch_per_rank("--batch", o.batch);
    run::check_run_outputs(r.checkpoint.save, o.csv, o.figures);
    run::require_memory("--batch", memory_estimate(o, r.training()), r.training());
}

// Loads Fashion-MNIST, trains (or loads), saves, reports test accuracy and draws the figures asked for.
int work(run::Run& r, const Options& o) {
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
    r.announce(fmt::format(
        "ViT on Fashion-MNIST: {} training / {} test images | patch {} ({} patches), {} pooling, D={} L={} heads={} "
        "MLP={} dropout {}, {} parameters | AdamW lr {} wd {}, warmup {} + cosine, smoothing {}, batch {}, {} epochs",
        train_set.size(), test_set.size(), o.patch, model.embed->n_patches, o.pooling == "cls" ? "[CLASS]" : "mean",
        o.model.d_model, o.model.layers, o.model.heads, o.model.d_ff, o.model.dropout, model.parameter_count(),
        o.adamw.lr, o.adamw.weight_decay, o.warmup, o.smoothing, o.batch, o.epochs));
    const double seconds = r.train_or_load(model, [&] { train(model, train_set, test_set, o, r); });
    if (r.training() && r.checkpoint.resume.empty())
        run::say("{:.0f} images/s, including the per-epoch test passes\n",
                 static_cast<double>(o.epochs * train_set.size()) / seconds);
    if (!r.is_root()) return 0;  // rank 0 evaluates the model every rank holds
    const auto confusion = report(model, test_set);
    if (!o.figures.empty()) {
        run::say("\nfigures written:\n");
        write_figures(model, test_images, mean, std, confusion, o.figures);
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    return run::main(argc, argv,
                     {.name = "vit_fashion_mnist",
                      .about = "Train a Vision Transformer on Fashion-MNIST and evaluate it on the test set.",
                      .saves = "the model, AdamW's state, the generators, the data's position",
                      .presets = {.names = {"default", "long"},
                                  .help = "default (>= 88% in about 2 minutes) or long (aims at 91%)",
                                  .apply = [&](const std::string& preset) { apply_preset(o, preset); }},
                      .seed = &o.seed,
                      .flags = [&](run::Flags& f) { add_flags(f, o); },
                      .check = [&](run::Run& r) { check_flags(r, o); },
                      .work = [&](run::Run& r) { return work(r, o); }});
}
