// Train a Vision Transformer (002's equations) on Fashion-MNIST and evaluate it
// on the 10,000 test images.
//   ./build/examples/vit_fashion_mnist                   the default run (>= 88% in about 2 minutes on 2 cores)
//   ./build/examples/vit_fashion_mnist --preset long     a longer run aiming at 91%
//   ./build/examples/vit_fashion_mnist --rollout figures attention-rollout pictures of a few test images
//   ./build/examples/vit_fashion_mnist --help            every flag
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "autograd/autograd.h"
#include "data/image_batches.h"
#include "examples/flags.h"
#include "examples/load_or_train.h"
#include "examples/progress_bar.h"
#include "examples/rollout_figure.h"
#include "examples/run_program.h"
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
    double dropout = 0.0;
    std::int64_t epochs = 5, batch = 128;
    double lr = 3e-3, weight_decay = 0.05, min_lr = 1e-5, smoothing = 0.1, clip = 1.0;
    std::int64_t warmup = 400;  // steps
    std::uint64_t seed = 1;
    int threads = 2;
    std::int64_t train_limit = 0;  // 0: all 60,000
    std::string data_dir = "/usr/share/datasets/fashion-mnist";
    std::string save, load, rollout;
    bool detect_anomaly = false;
};

void apply_preset(Options& o) {
    if (o.preset == "long") o.epochs = 30, o.d_model = 96, o.mlp = 192, o.heads = 4, o.depth = 6, o.dropout = 0.1;
}

models::ViTConfig model_config(const Options& o) {
    models::ViTConfig c;
    c.patch = o.patch, c.d_model = o.d_model, c.depth = o.depth, c.heads = o.heads, c.mlp = o.mlp;
    c.dropout = o.dropout, c.seed = o.seed;
    return c;
}

// Test accuracy, and the confusion matrix counts[true][predicted].
double evaluate(const models::ViT& model, data::ImageBatches& test, std::vector<std::vector<std::int64_t>>* confusion) {
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    std::int64_t correct = 0;
    test.reset();
    data::ImageBatch b;
    while (test.next(b)) {
        Tensor pred = argmax(model.forward(b.images), -1);
        for (std::int64_t i = 0; i < pred.numel(); ++i) {
            std::int64_t y = b.labels.data<std::int64_t>()[i], p = pred.data<std::int64_t>()[i];
            correct += y == p;
            if (confusion) (*confusion)[y][p] += 1;
        }
    }
    return static_cast<double>(correct) / static_cast<double>(test.size());
}

void train(models::ViT& model, data::ImageBatches& train_set, data::ImageBatches& test_set, const Options& o) {
    nn::optim::AdamW opt(model.parameters(), {.lr = o.lr, .weight_decay = o.weight_decay});
    const std::int64_t steps = o.epochs * train_set.batches_per_epoch();
    nn::WarmupCosineSchedule schedule(o.lr, std::min(o.warmup, steps - 1), steps, o.min_lr);
    std::int64_t step = 0;
    auto start = std::chrono::steady_clock::now();
    for (std::int64_t epoch = 1; epoch <= o.epochs; ++epoch) {
        fmt::print("epoch {}/{}\n", epoch, o.epochs);
        examples::ProgressBar bar(train_set.batches_per_epoch(), "img");
        train_set.reset();
        data::ImageBatch b;
        std::int64_t i = 0;
        double running = 0;
        while (train_set.next(b)) {
            opt.set_lr(schedule.lr(++step));
            opt.zero_grad();
            Tensor loss = cross_entropy(model.forward(b.images), b.labels, -100, o.smoothing);
            const double loss_value = loss.item();
            nn::check_finite_loss(loss_value, step);
            loss.backward();
            nn::check_finite_gradients(model, step);
            nn::clip_grad_norm_(model.parameters(), o.clip);
            opt.step();
            running = i == 0 ? loss_value : 0.95 * running + 0.05 * loss_value;
            bar.update(++i, b.labels.numel(), fmt::format("loss {:.4f}  lr {:.1e}", running, opt.lr()));
        }
        double acc = evaluate(model, test_set, nullptr);
        fmt::print("epoch {} test accuracy {:.2f}%  ({} elapsed)\n", epoch, 100 * acc,
                   examples::ProgressBar::clock(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()));
    }
}

void report(models::ViT& model, data::ImageBatches& test_set) {
    std::vector<std::vector<std::int64_t>> confusion(10, std::vector<std::int64_t>(10, 0));
    double acc = evaluate(model, test_set, &confusion);
    fmt::print("\ntest accuracy {:.2f}% on {} images\n\n{:<12} {:>8}   confusion (rows: true class, columns: predicted)\n",
               100 * acc, test_set.size(), "class", "accuracy");
    for (int y = 0; y < 10; ++y) {
        std::int64_t total = 0;
        for (auto c : confusion[y]) total += c;
        std::string row;
        for (auto c : confusion[y]) row += fmt::format("{:>5}", c);
        fmt::print("{:<12} {:>7.1f}%  {}\n", data::kFashionMnistClasses[y],
                   100.0 * static_cast<double>(confusion[y][y]) / static_cast<double>(std::max<std::int64_t>(total, 1)), row);
    }
}

void write_rollouts(const models::ViT& model, const data::ImageSet& test, double mean, double std, const std::string& dir) {
    std::filesystem::create_directories(dir);
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    const std::int64_t n = 8;
    Tensor images = (narrow(test.images, 0, 0, n) - mean) / std;
    Tensor pred = argmax(model.forward(images), -1);
    Tensor rollout = models::attention_rollout(model);  // [n, N]
    for (std::int64_t i = 0; i < n; ++i) {
        auto y = static_cast<std::int64_t>(test.labels.at({i})), p = pred.data<std::int64_t>()[i];
        std::string name = data::kFashionMnistClasses[y];
        std::replace(name.begin(), name.end(), '/', '-');
        std::replace(name.begin(), name.end(), ' ', '-');
        std::string path = fmt::format("{}/rollout_{}_{}.png", dir, i, name);
        examples::write_rollout_png(path, select(select(test.images, 0, i), 0, 0), select(rollout, 0, i));
        fmt::print("  {} (predicted {})\n", path, data::kFashionMnistClasses[p]);
    }
}

// The flags; the preset, read first, sets the defaults the other flags override.
void add_flags(CLI::App& app, Options& o, int argc, char** argv) {
    app.add_option("--preset", o.preset, "default (>= 88% in about 2 minutes) or long (aims at 91%)")
        ->check(CLI::IsMember({"default", "long"}));
    o.preset = examples::peek_preset(argc, argv, o.preset);  // the preset sets defaults, flags override them
    apply_preset(o);
    app.add_option("--patch", o.patch, "patch size P (divides 28)")->check(CLI::IsMember({1, 2, 4, 7, 14, 28}));
    app.add_option("--d-model", o.d_model, "token width D")->check(CLI::Range(2, 4096));
    app.add_option("--depth", o.depth, "encoder layers L")->check(CLI::Range(1, 64));
    app.add_option("--heads", o.heads, "attention heads (divide D)")->check(CLI::Range(1, 64));
    app.add_option("--mlp", o.mlp, "MLP hidden width")->check(CLI::Range(1, 16384));
    app.add_option("--dropout", o.dropout, "dropout")->check(examples::finite_range(0.0, 0.99));
    app.add_option("--epochs", o.epochs, "epochs")->check(CLI::Range(1, 10000));
    app.add_option("--batch", o.batch, "images per batch")->check(CLI::Range(1, 60000));
    app.add_option("--lr", o.lr, "peak learning rate (AdamW)")->check(examples::finite_positive());
    app.add_option("--weight-decay", o.weight_decay, "AdamW's decoupled weight decay")->check(examples::finite_range(0.0, 10.0));
    app.add_option("--warmup", o.warmup, "linear warmup steps before the cosine decay")->check(CLI::Range(0, 10000000));
    app.add_option("--min-lr", o.min_lr, "learning rate at the end of the cosine")->check(examples::finite_range(0.0, 1.0));
    app.add_option("--smoothing", o.smoothing, "label smoothing")->check(examples::finite_range(0.0, 0.99));
    app.add_option("--clip", o.clip, "gradient clipping: max global norm")->check(examples::finite_positive());
    app.add_option("--seed", o.seed, "seed of initialisation and shuffling");
    app.add_option("--threads", o.threads, "threads (BLAS)")->check(CLI::Range(1, 256));
    app.add_option("--train-limit", o.train_limit, "train on the first N images only (0: all)")->check(CLI::Range(0, 60000));
    app.add_option("--data", o.data_dir, "folder of the gzipped IDX files");
    app.add_option("--save", o.save, "write a checkpoint here after training");
    app.add_option("--load", o.load, "load this checkpoint and evaluate without training (same model flags)");
    app.add_option("--rollout", o.rollout, "write attention-rollout PNGs of 8 test images into this folder");
    app.add_flag("--detect-anomaly", o.detect_anomaly,
                 "check every op's output and gradient, and name the first op that makes a NaN or an infinity (slow)");
}

// What no single flag's check can see: flags that must agree, and output
// paths that must be writable, all before any work starts.
void check_flags(const Options& o) {
    if (o.d_model % o.heads != 0) throw CLI::ValidationError("--heads", "must divide --d-model");
    examples::check_output_file("--save", o.save);
    examples::check_output_folder("--rollout", o.rollout);
}

// Loads Fashion-MNIST, trains (or loads), saves, reports test accuracy and draws the rollouts asked for.
int run(const Options& o) {
    set_num_threads(o.threads);
    manual_seed(o.seed);
    data::ImageSet train_images = data::load_fashion_mnist(data::Split::train, o.data_dir);
    data::ImageSet test_images = data::load_fashion_mnist(data::Split::test, o.data_dir);
    // Normalised with the whole training set's statistics, so a checkpoint
    // sees the same inputs whatever --train-limit it was trained with.
    auto [mean, std] = data::pixel_statistics(train_images);
    if (o.train_limit > 0) {
        train_images.images = narrow(train_images.images, 0, 0, o.train_limit);
        train_images.labels = narrow(train_images.labels, 0, 0, o.train_limit);
    }
    data::ImageBatches train_set(train_images, o.batch, mean, std, true, o.seed);
    data::ImageBatches test_set(test_images, 500, mean, std, false, 0);
    models::ViT model(model_config(o));
    fmt::print("ViT on Fashion-MNIST: {} training / {} test images | patch {} ({} patches), D={} L={} heads={} "
               "MLP={} dropout {}, {} parameters | AdamW lr {} wd {}, warmup {} + cosine, smoothing {}, batch {}, "
               "{} epochs | {} threads\n",
               train_set.size(), test_set.size(), o.patch, model.embed->n_patches, o.d_model, o.depth, o.heads,
               o.mlp, o.dropout, model.parameter_count(), o.lr, o.weight_decay, o.warmup, o.smoothing, o.batch,
               o.epochs, o.threads);
    double seconds = examples::load_or_train(model, o.load, [&] { train(model, train_set, test_set, o); });
    if (seconds > 0)
        fmt::print("{:.0f} images/s, including the per-epoch test passes\n",
                   static_cast<double>(o.epochs * train_set.size()) / seconds);
    examples::save_if_asked(model, o.save);
    report(model, test_set);
    if (!o.rollout.empty()) {
        fmt::print("\nattention rollout (image | map) written:\n");
        write_rollouts(model, test_images, mean, std, o.rollout);
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app{"Train a Vision Transformer on Fashion-MNIST and evaluate it on the test set."};
    add_flags(app, o, argc, argv);
    if (int status = examples::parse_flags(app, argc, argv, "vit_fashion_mnist", [&] { check_flags(o); }); status >= 0) return status;
    return examples::run_program("vit_fashion_mnist", o.detect_anomaly, [&] { return run(o); });
}
