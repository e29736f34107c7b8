// vit-fine-tune (000 §15.5.6, 004 §15.5.6; 002 "Vision Transformer Architecture"): a ViT is
// trained in a supervised way, then fine-tuned on a downstream classification task with a new
// head (transfer learning); ViTs need much data to make up for the inductive bias they lack, and
// become competitive after large-scale pretraining. Here the upstream task is Fashion-MNIST's
// classes 0-4 (clothes) and the downstream one its classes 5-9 (sandal, shirt, sneaker, bag, ankle
// boot) with few labels: n = 10, 50 and 500 labelled images per class. The pre-trained body under
// a new head (models::with_new_head) is fine-tuned on them, against the same ViT trained from
// scratch on the same images with the same steps; held-out accuracy on classes 5-9. The two arms
// of a seed start from the same initial weights (the pre-trained body was itself trained from
// them, and the heads are drawn alike) and see the same labelled images in the same order, so
// they are compared seed by seed over 3 seeds (statistics.h).
#include <cmath>

#include <fmt/format.h>

#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/statistics.h"
#include "lectern/data/image_batches.h"
#include "lectern/models/vit.h"
#include "lectern/nn/clip_grad.h"
#include "lectern/nn/lr_schedule.h"
#include "lectern/nn/optim/adamw.h"
#include "lectern/nn/optim/param_groups.h"
#include "lectern/run/shell/console.h"

namespace run::experiments {

namespace {

using namespace autograd;

constexpr std::int64_t kClasses = 5;  // upstream classes 0..4, downstream 5..9 (as labels 0..4)

struct Budget {
    std::int64_t upstream_images, upstream_epochs, fine_tune_steps, test_images;
    std::int64_t upstream_batch = 128, batch = 64;
};

// The images of `set` at `indices`, each label less `offset` (classes 5..9 become 0..4).
data::ImageSet pick(const data::ImageSet& set, const std::vector<std::int64_t>& indices, std::int64_t offset) {
    std::vector<double> idx, labels;
    for (std::int64_t i : indices) {
        idx.push_back(static_cast<double>(i));
        labels.push_back(static_cast<double>(set.labels.data<std::int64_t>()[i] - offset));
    }
    const auto n = static_cast<std::int64_t>(indices.size());
    return {index_select(set.images, 0, tensor(idx, {n}, Dtype::int64)), tensor(labels, {n}, Dtype::int64)};
}

// The indices of `set`'s images of each class first, ..., first + 4, class by class, in order.
std::vector<std::vector<std::int64_t>> by_class(const data::ImageSet& set, std::int64_t first) {
    std::vector<std::vector<std::int64_t>> out(kClasses);
    for (std::int64_t i = 0; i < set.labels.numel(); ++i) {
        const std::int64_t k = set.labels.data<std::int64_t>()[i] - first;
        if (k >= 0 && k < kClasses) out[static_cast<std::size_t>(k)].push_back(i);
    }
    return out;
}

// The first `n` images of every class, classes interleaved.
std::vector<std::int64_t> first_of_each(const std::vector<std::vector<std::int64_t>>& classes, std::int64_t n) {
    std::vector<std::int64_t> out;
    for (std::int64_t i = 0; i < n; ++i)
        for (const auto& c : classes)
            if (i < static_cast<std::int64_t>(c.size())) out.push_back(c[static_cast<std::size_t>(i)]);
    return out;
}

// Each class's images in an order drawn from `seed` (Fisher-Yates), so that the first n of a
// class are n labelled images drawn at random, and a seed's 10 are among its 50.
std::vector<std::vector<std::int64_t>> shuffled(std::vector<std::vector<std::int64_t>> classes, std::uint64_t seed) {
    Generator gen(seed);
    for (auto& c : classes)
        for (std::size_t i = c.size(); i > 1; --i)
            std::swap(c[i - 1], c[static_cast<std::size_t>(gen.randint(static_cast<std::int64_t>(i)))]);
    return classes;
}

// vit_fashion_mnist's recipe, as vit-pooling trains it: AdamW at 3e-3 (weight decay 0.05 off the
// norms and biases), warm-up then cosine, label smoothing 0.1, clipping at 1; `steps` steps of
// `batch`, the set reshuffled each epoch. Fine-tuning and training from scratch both use it.
void train(models::ViT& model, const data::ImageSet& set, double mean, double std, std::int64_t steps,
           std::int64_t batch, std::uint64_t seed) {
    data::ImageBatches batches(set, batch, mean, std, true, seed);
    nn::optim::AdamW opt(nn::optim::weight_decay_groups(model, 0.05), {.lr = 3e-3});
    nn::WarmupCosineSchedule schedule(3e-3, std::min<std::int64_t>(100, steps / 5), steps, 1e-5);
    data::ImageBatch b;
    for (std::int64_t step = 1; step <= steps; ++step) {
        if (!batches.next(b)) batches.reset(), batches.next(b);
        opt.set_lr(schedule.lr(step));
        opt.zero_grad();
        cross_entropy(model.forward(b.images), b.labels, -100, 0.1).backward();
        nn::clip_grad_norm_(model.parameters(), 1.0);
        opt.step();
    }
}

double accuracy(const models::ViT& model, const data::ImageSet& set, double mean, double std) {
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    data::ImageBatches held_out(set, 500, mean, std, false, 0);
    data::ImageBatch b;
    std::int64_t correct = 0;
    while (held_out.next(b)) {
        Tensor pred = argmax(model.forward(b.images), -1);
        for (std::int64_t i = 0; i < pred.numel(); ++i)
            correct += pred.data<std::int64_t>()[i] == b.labels.data<std::int64_t>()[i];
    }
    return static_cast<double>(correct) / static_cast<double>(set.labels.numel());
}

std::string class_names(std::int64_t first) {
    std::string out;
    for (std::int64_t k = first; k < first + kClasses; ++k)
        out += fmt::format("{}{}", k > first ? ", " : "", data::kFashionMnistClasses[k]);
    return out;
}

void run(const Options& o) {
    const Budget b = o.quick ? Budget{1000, 1, 10, 500} : Budget{30000, 3, 300, 5000};
    const std::vector<std::int64_t> per_class = {10, 50, 500};
    const int seeds = seeds_or(o, o.quick ? 1 : 3);
    const data::ImageSet train_all = data::load_fashion_mnist(data::Split::train);
    const data::ImageSet test_all = data::load_fashion_mnist(data::Split::test);
    const std::vector<std::vector<std::int64_t>> upstream_train = by_class(train_all, 0),
                                                 downstream_train = by_class(train_all, kClasses);
    const data::ImageSet upstream = pick(train_all, first_of_each(upstream_train, b.upstream_images / kClasses), 0);
    // Every image is normalised by the pre-training images' mean and std, which the fine-tuned
    // model keeps, and the model from scratch shares.
    const auto [mean, std] = data::pixel_statistics(upstream);
    const data::ImageSet upstream_test =
        pick(test_all, first_of_each(by_class(test_all, 0), b.test_images / kClasses), 0);
    const data::ImageSet downstream_test =
        pick(test_all, first_of_each(by_class(test_all, kClasses), b.test_images / kClasses), kClasses);

    models::ViTConfig c;
    c.patch = 7, c.d_model = 64, c.depth = 3, c.heads = 4, c.mlp = 128, c.classes = kClasses;
    const std::int64_t upstream_steps =
        b.upstream_epochs * ((upstream.labels.numel() + b.upstream_batch - 1) / b.upstream_batch);
    say("ViT P 7, D 64, depth 3, 4 heads, MLP 128 | pre-trained on {} training images of classes 0-4 ({}) x {} "
        "epoch{} of batch {} ({} steps) | then, with a new head, fine-tuned on n labelled images per class of classes "
        "5-9 ({}), against the same ViT trained from scratch on them, {} steps of batch {} each | accuracy on {} test "
        "images of classes 5-9 | seeds {}..{}\n",
        upstream.labels.numel(), class_names(0), b.upstream_epochs, b.upstream_epochs > 1 ? "s" : "", b.upstream_batch,
        upstream_steps, class_names(kClasses), b.fine_tune_steps, b.batch, downstream_test.labels.numel(), o.seed,
        o.seed + static_cast<std::uint64_t>(seeds) - 1);

    struct Arms {
        std::vector<double> fine_tuned, scratch;
    };
    std::vector<Arms> arms(per_class.size());
    Table table({"labelled per class", "seed", "fine-tuned", "from scratch", "fine-tuned - scratch"});
    std::vector<double> upstream_accuracy;
    for (int s = 0; s < seeds; ++s) {
        const std::uint64_t seed = o.seed + static_cast<std::uint64_t>(s);
        c.seed = seed;
        models::ViT pretrained(c);
        train(pretrained, upstream, mean, std, upstream_steps, b.upstream_batch, seed);
        upstream_accuracy.push_back(accuracy(pretrained, upstream_test, mean, std));
        say("  seed {}: pre-trained on classes 0-4, {:.2f}% on their {} test images\n", seed,
            100 * upstream_accuracy.back(), upstream_test.labels.numel());
        const auto order = shuffled(downstream_train, seed);
        for (std::size_t i = 0; i < per_class.size(); ++i) {
            const data::ImageSet labelled = pick(train_all, first_of_each(order, per_class[i]), kClasses);
            std::unique_ptr<models::ViT> fine = models::with_new_head(pretrained, kClasses, seed);
            train(*fine, labelled, mean, std, b.fine_tune_steps, b.batch, seed);
            models::ViT scratch(c);
            train(scratch, labelled, mean, std, b.fine_tune_steps, b.batch, seed);
            const double a = accuracy(*fine, downstream_test, mean, std);
            const double z = accuracy(scratch, downstream_test, mean, std);
            arms[i].fine_tuned.push_back(a), arms[i].scratch.push_back(z);
            say("    {:>3} labelled per class: fine-tuned {:.2f}%, from scratch {:.2f}%\n", per_class[i], 100 * a,
                100 * z);
            table.row({std::to_string(per_class[i]), std::to_string(seed), fmt::format("{:.2f}%", 100 * a),
                       fmt::format("{:.2f}%", 100 * z), fmt::format("{:+.2f} points", 100 * (a - z))});
        }
    }
    say("\n");
    table.print();

    say("\n");
    Table summary(
        {"labelled per class", "fine-tuned (%)", "from scratch (%)", "fine-tuned - scratch (points, paired by seed)"});
    plot::Curve fine_curve{"pre-trained on classes 0-4, fine-tuned", {}, {}, true};
    plot::Curve scratch_curve{"from scratch", {}, {}, true};
    plot::Curve gain_curve{"fine-tuned - from scratch", {}, {}, true};
    bool held = true;
    std::string gaps;
    for (std::size_t i = 0; i < per_class.size(); ++i) {
        const Estimate f = estimate(arms[i].fine_tuned), z = estimate(arms[i].scratch);
        const Estimate d = paired_difference(arms[i].fine_tuned, arms[i].scratch);
        held = held && exceeds(d);
        gaps += fmt::format("{}{}/class {}", gaps.empty() ? "" : ", ", per_class[i], pm(d, 2, 100));
        summary.row({std::to_string(per_class[i]), pm(f, 2, 100), pm(z, 2, 100), pm(d, 2, 100)});
        const auto x = static_cast<double>(per_class[i]);
        auto add = [&](plot::Curve& curve, const Estimate& e) {
            curve.x.push_back(x), curve.y.push_back(100 * e.mean);
            curve.error.push_back(std::isfinite(e.standard_error) ? 100 * e.standard_error : 0);
        };
        add(fine_curve, f), add(scratch_curve, z), add(gain_curve, d);
    }
    summary.print();
    const Estimate up = estimate(upstream_accuracy);
    say("(mean +- standard error over {} seed{}; the pre-trained models' accuracy on classes 0-4 (%): {})\n", seeds,
        seeds > 1 ? "s" : "", pm(up, 2, 100));

    const std::string x_label = "labelled images per class of classes 5-9";
    plot::LinePlot accuracy_panel{"Held-out accuracy on classes 5-9, mean +- s.e.",
                                  x_label,
                                  "accuracy (%)",
                                  {fine_curve, scratch_curve},
                                  true};
    const plot::Curve zero{"no difference", {gain_curve.x.front(), gain_curve.x.back()}, {0, 0}};
    plot::LinePlot gain_panel{"Fine-tuned - from scratch, paired, mean +- s.e.",
                              x_label,
                              "difference (points)",
                              {gain_curve, zero},
                              true};
    draw(o, "experiments_vit_fine_tune",
         plot::Figure{fmt::format("vit-fine-tune: pre-trained on classes 0-4 then fine-tuned, or from scratch ({} "
                                  "seed{})",
                                  seeds, seeds > 1 ? "s" : ""),
                      2,
                      1100,
                      450,
                      {accuracy_panel, gain_panel}});

    verdict(o, held,
            fmt::format("fine-tuned minus from scratch, paired over {} seed{}: {} points on {} test images of classes "
                        "5-9 (each must exceed 0 by two standard errors)",
                        seeds, seeds > 1 ? "s" : "", gaps, downstream_test.labels.numel()));
}

}  // namespace

Experiment vit_fine_tune_experiment() {
    return {"vit-fine-tune",
            "000 and 004 §15.5.6: after supervised pretraining a ViT is fine-tuned, with a new head, on a downstream "
            "classification task; with few labels it beats the same ViT trained from scratch on them",
            run,
            {"--seeds"}};
}

}  // namespace run::experiments
