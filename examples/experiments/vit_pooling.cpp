// vit-pooling (002 "Output transformations"): a ViT classifies an image from
// the output at its [CLASS] token or from the mean of its patch outputs, and
// the notes offer either. Both are trained on Fashion-MNIST at patch sizes 14,
// 7 and 4 (N = 4, 16 and 49 patches), the same model and budget otherwise:
// held-out accuracy and the time of a training step. The patch size sets the
// sequence length, and 002 ("Self-attention scales quadratically with sequence
// length ... numerous patches") says what that costs. Each pair of runs, [CLASS] and
// mean, shares its seed: the same images in the same order (the initialisation differs
// only by the [CLASS] token's row), so the poolings are compared seed by seed over 3
// seeds (statistics.h).
#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "lectern/data/image_batches.h"
#include "lectern/run/shell/console.h"
#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/scaling.h"
#include "examples/experiments/statistics.h"
#include "lectern/models/vit.h"
#include "lectern/nn/clip_grad.h"
#include "lectern/nn/lr_schedule.h"
#include "lectern/nn/optim/adamw.h"
#include "lectern/nn/optim/param_groups.h"

namespace run::experiments {

namespace {

using namespace autograd;

struct Budget {
    std::int64_t train_images, test_images, epochs, batch = 128;
};

struct PoolingRun {
    models::Pooling pooling;
    std::int64_t patch;
    std::uint64_t seed = 1;
    double accuracy = 0;     // on the held-out images
    double step_ms = 0;      // median training step, wall-clock, on the program's threads
    double step_cpu_ms = 0;  // median work of a step: one thread's CPU time (scaling.h)
    std::int64_t correct = 0, tested = 0;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// vit_fashion_mnist's recipe (AdamW, warm-up then cosine, label smoothing 0.1,
// clipping at 1), a smaller model (depth 3) and budget; accuracy on the first
// test images.
void train_and_test(PoolingRun& run, const data::ImageSet& train, const data::ImageSet& test, double mean, double std,
                    const Budget& b, std::uint64_t seed) {
    models::ViTConfig c;
    c.patch = run.patch, c.d_model = 64, c.depth = 3, c.heads = 4, c.mlp = 128, c.pooling = run.pooling, c.seed = seed;
    models::ViT model(c);
    data::ImageBatches batches(train, b.batch, mean, std, true, seed);
    const std::int64_t steps = b.epochs * batches.batches_per_epoch();
    nn::optim::AdamW opt(nn::optim::weight_decay_groups(model, 0.05), {.lr = 3e-3});
    nn::WarmupCosineSchedule schedule(3e-3, std::min<std::int64_t>(100, steps / 5), steps, 1e-5);
    std::vector<double> step_ms;
    std::int64_t step = 0;
    data::ImageBatch batch;
    auto train_step = [&] {
        opt.zero_grad();
        cross_entropy(model.forward(batch.images), batch.labels, -100, 0.1).backward();
        nn::clip_grad_norm_(model.parameters(), 1.0);
        opt.step();
    };
    for (std::int64_t epoch = 0; epoch < b.epochs; ++epoch) {
        batches.reset();
        while (batches.next(batch)) {
            auto start = std::chrono::steady_clock::now();
            opt.set_lr(schedule.lr(++step));
            train_step();
            step_ms.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        }
    }
    run.step_ms = median(step_ms);
    {
        NoGradGuard no_grad;
        nn::EvalGuard eval(model);
        data::ImageBatches held_out(test, 500, mean, std, false, 0);
        data::ImageBatch images;
        while (held_out.next(images)) {
            Tensor pred = argmax(model.forward(images.images), -1);
            for (std::int64_t i = 0; i < pred.numel(); ++i)
                run.correct += pred.data<std::int64_t>()[i] == images.labels.data<std::int64_t>()[i];
            run.tested += pred.numel();
        }
        run.accuracy = static_cast<double>(run.correct) / static_cast<double>(run.tested);
    }
    // The work of a step, measured once the model is tested (the steps timed change it):
    // more steps on the first batch, on one thread.
    batches.reset();
    batches.next(batch);
    run.step_cpu_ms = 1e3 * median_time(train_step, 5).cpu;
}

data::ImageSet first(const data::ImageSet& set, std::int64_t n) {
    return {narrow(set.images, 0, 0, n), narrow(set.labels, 0, 0, n)};
}

void run_vit_pooling(const Options& o) {
    const Budget b = o.quick ? Budget{1024, 500, 1} : Budget{10000, 2000, 2};
    const int seeds = seeds_or(o, o.quick ? 1 : 3);
    const data::ImageSet train_all = data::load_fashion_mnist(data::Split::train);
    const data::ImageSet test_all = data::load_fashion_mnist(data::Split::test);
    const auto [mean, std] = data::pixel_statistics(train_all);
    const data::ImageSet train = first(train_all, b.train_images), test = first(test_all, b.test_images);
    run::say(
        "ViT D 64, depth 3, 4 heads, MLP 128 | {} training images x {} epochs, batch {} | accuracy on the "
        "first {} test images | seeds {}..{}\n",
        b.train_images, b.epochs, b.batch, b.test_images, o.seed, o.seed + static_cast<std::uint64_t>(seeds) - 1);

    const std::vector<std::int64_t> patches = {14, 7, 4};
    std::vector<PoolingRun> all;  // patch by patch, seed by seed, [CLASS] then mean
    for (std::int64_t patch : patches)
        for (int s = 0; s < seeds; ++s)
            for (models::Pooling pooling : {models::Pooling::cls, models::Pooling::mean}) {
                PoolingRun r{pooling, patch, o.seed + static_cast<std::uint64_t>(s)};
                train_and_test(r, train, test, mean, std, b, r.seed);
                run::say(
                    "  patch {:>2}, seed {}, {:<4} pooling: {:.2f}%, {:.1f} ms a step ({:.1f} ms of work on one "
                    "thread)\n",
                    patch, r.seed, models::pooling_name(pooling), 100 * r.accuracy, r.step_ms, r.step_cpu_ms);
                all.push_back(r);
            }

    Table table({"patch P", "tokens", "pooling", "seed", "held-out accuracy", "step (wall)", "step (work, 1 thread)"});
    for (const PoolingRun& r : all) {
        const std::int64_t n = (28 / r.patch) * (28 / r.patch);
        table.row({std::to_string(r.patch),
                   r.pooling == models::Pooling::cls ? fmt::format("{} + [CLASS]", n) : std::to_string(n),
                   r.pooling == models::Pooling::cls ? "[CLASS]" : "mean", std::to_string(r.seed),
                   fmt::format("{:.2f}%", 100 * r.accuracy), fmt::format("{:.1f} ms", r.step_ms),
                   fmt::format("{:.1f} ms", r.step_cpu_ms)});
    }
    run::say("\n");
    table.print();

    // Per patch size and pooling, over the seeds: the accuracy and the step's work.
    struct Arm {
        std::vector<double> accuracy, cpu_ms;
    };
    std::vector<Arm> arms(2 * patches.size());  // [patch index][cls, mean]
    for (const PoolingRun& r : all) {
        const std::size_t i =
            static_cast<std::size_t>(std::find(patches.begin(), patches.end(), r.patch) - patches.begin());
        Arm& a = arms[2 * i + (r.pooling == models::Pooling::mean)];
        a.accuracy.push_back(r.accuracy), a.cpu_ms.push_back(r.step_cpu_ms);
    }
    run::say("\n");
    Table summary({"patch P", "[CLASS] accuracy (%)", "mean accuracy (%)", "mean - [CLASS] (points, paired by seed)",
                   "step work, [CLASS] (ms)", "mean (ms)"});
    // The pooling claim: the two are equal within kMargin, the paired difference's mean
    // and two standard errors inside +-kMargin at every patch size.
    const double kMargin = 0.015;
    bool pooling_ok = true;
    std::string gaps;
    for (std::size_t i = 0; i < patches.size(); ++i) {
        const Estimate d = paired_difference(arms[2 * i + 1].accuracy, arms[2 * i].accuracy);
        pooling_ok = pooling_ok && within(d, kMargin);
        gaps += fmt::format("{}P{} {}", gaps.empty() ? "" : ", ", patches[i], pm(d, 2, 100));
        summary.row({std::to_string(patches[i]), pm(estimate(arms[2 * i].accuracy), 2, 100),
                     pm(estimate(arms[2 * i + 1].accuracy), 2, 100), pm(d, 2, 100), pm(estimate(arms[2 * i].cpu_ms), 1),
                     pm(estimate(arms[2 * i + 1].cpu_ms), 1)});
    }
    summary.print();
    run::say("(mean +- standard error over {} seed{}; step times depend on the machine)\n", seeds,
             seeds > 1 ? "s" : "");
    // The cost claim: more patches, longer steps (each pooling's mean work ordered 14 < 7 < 4),
    // judged on the work of a step (one thread's CPU time, scaling.h), which neither other users
    // of the machine nor waiting threads inflate.
    bool cost_grows = true;
    for (std::size_t k = 0; k < 2; ++k)
        cost_grows = cost_grows && estimate(arms[k].cpu_ms).mean < estimate(arms[2 + k].cpu_ms).mean &&
                     estimate(arms[2 + k].cpu_ms).mean < estimate(arms[4 + k].cpu_ms).mean;
    const double ratio = estimate(arms[4].cpu_ms).mean / estimate(arms[0].cpu_ms).mean;
    // Each pooling's mean over the seeds at each patch size, one standard error each side (none
    // for one seed); x is the patch size P or the number of patches N = (28 / P)^2.
    auto curve = [&](std::size_t k, const char* name, bool against_patches, std::vector<double> Arm::*quantity,
                     double scale) {
        plot::Curve c{name, {}, {}, true};
        for (std::size_t i = 0; i < patches.size(); ++i) {
            const Estimate e = estimate(arms[2 * i + k].*quantity);
            const std::int64_t n = (28 / patches[i]) * (28 / patches[i]);
            c.x.push_back(static_cast<double>(against_patches ? n : patches[i]));
            c.y.push_back(scale * e.mean);
            c.error.push_back(std::isfinite(e.standard_error) ? scale * e.standard_error : 0);
        }
        return c;
    };
    auto accuracy_curve = [&](std::size_t k, const char* name) { return curve(k, name, false, &Arm::accuracy, 100); };
    auto time_curve = [&](std::size_t k, const char* name) { return curve(k, name, true, &Arm::cpu_ms, 1); };
    plot::LinePlot accuracy{"Held-out accuracy against the patch size",
                            "patch size P (pixels)",
                            "held-out accuracy (%)",
                            {accuracy_curve(0, "[CLASS] token"), accuracy_curve(1, "mean of the patches")}};
    plot::LinePlot cost{"Training step time against the number of patches",
                        "patches N = (28 / P)^2",
                        "median CPU time of a step (ms, batch 128)",
                        {time_curve(0, "[CLASS] token"), time_curve(1, "mean of the patches")},
                        true,
                        true};
    draw(o, "experiments_vit_pooling",
         plot::Figure{fmt::format("vit-pooling: [CLASS] against the mean of the patches, on Fashion-MNIST (mean +- "
                                  "s.e. of {} seed{})",
                                  seeds, seeds > 1 ? "s" : ""),
                      2,
                      1100,
                      450,
                      {accuracy, cost}});

    verdict(
        o, pooling_ok && cost_grows,
        fmt::format("mean pooling minus [CLASS], paired over {} seed{}: {} points ({} +-{:.1f} with two standard "
                    "errors to spare, on {} test images); CPU time of a step {} with the number of patches ({:.1f}x "
                    "from N = 4 to N = 49)",
                    seeds, seeds > 1 ? "s" : "", gaps, pooling_ok ? "within" : "NOT within", 100 * kMargin,
                    b.test_images, cost_grows ? "grows" : "does NOT grow steadily", ratio));
}

}  // namespace

Experiment vit_pooling_experiment() {
    return {"vit-pooling",
            "002 \"Output transformations\": a ViT classifies as well from the mean of its tokens as from a [CLASS] "
            "token; smaller patches mean more tokens and slower steps",
            run_vit_pooling,
            {"--seeds"}};
}

}  // namespace run::experiments
