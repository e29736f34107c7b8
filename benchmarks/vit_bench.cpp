#include "benchmarks/vit_bench.h"

#include "benchmarks/model_flops.h"
#include "benchmarks/train_timing.h"
#include "data/image_batches.h"
#include "nn/clip_grad.h"
#include "nn/loss.h"
#include "nn/lr_schedule.h"
#include "nn/optim/adamw.h"

using namespace autograd;

namespace benchmarks {

namespace {

// examples/vit_fashion_mnist.cpp's Options: D 64, depth 4, 4 heads, MLP 128,
// no dropout, seed 1; AdamW lr 3e-3, weight decay 0.05, 400 warmup steps then
// cosine to 1e-5 over 5 epochs, label smoothing 0.1, gradient clipping at 1.
models::ViTConfig vit_model(std::int64_t patch) {
    models::ViTConfig c;
    c.patch = patch, c.d_model = 64, c.depth = 4, c.heads = 4, c.mlp = 128, c.dropout = 0.0, c.seed = 1;
    return c;
}

}  // namespace

ViTSetup vit_patch7() {
    return {"vit_patch7", "ViT, patch 7 (16 patches), D 64, depth 4, 4 heads, MLP 128, batch 128", vit_model(7), 128};
}

ViTSetup vit_default() {
    return {"vit_default", "ViT, default preset: patch 4 (49 patches), D 64, depth 4, 4 heads, MLP 128, batch 128",
            vit_model(4), 128};
}

std::int64_t vit_steps_per_epoch(std::int64_t batch) { return (60000 + batch - 1) / batch; }

std::vector<Record> bench_vit(const ViTSetup& s, const RunSettings& run) {
    manual_seed(s.model.seed);
    data::ImageSet images = data::load_fashion_mnist(data::Split::train, run.data_dir);
    auto [mean, std] = data::pixel_statistics(images);
    data::ImageBatches batches(images, s.batch, mean, std, true, s.model.seed);
    models::ViT model(s.model);
    model.train();
    const double lr = 3e-3, min_lr = 1e-5, smoothing = 0.1, clip = 1.0;
    nn::optim::AdamW opt(model.parameters(), {.lr = lr, .weight_decay = 0.05});
    nn::WarmupCosineSchedule schedule(lr, 400, 5 * vit_steps_per_epoch(s.batch), min_lr);
    std::int64_t step = 0;
    data::ImageBatch b;
    TrainingStep training{
        .next_batch =
            [&] {
                if (!batches.next(b)) {
                    batches.reset();
                    batches.next(b);
                }
            },
        .forward = [&] { return autograd::cross_entropy(model.forward(b.images), b.labels, -100, smoothing); },
        .update =
            [&] {
                nn::clip_grad_norm_(model.parameters(), clip);
                opt.set_lr(schedule.lr(++step));  // steps count from 1
                opt.step();
                opt.zero_grad();
            },
    };
    TrainingFigures f;
    f.workload = s.workload, f.description = s.description, f.unit = "img";
    f.batch = f.items_per_step = s.batch;
    f.warmup = run.warmup, f.steps = run.steps;
    const models::ViTConfig& c = s.model;
    f.flops_per_step = vit_step_flops({c.image_size, c.channels, c.patch, c.d_model, c.depth, c.mlp, c.classes, s.batch});
    f.times = time_training_steps(training, run.warmup, run.steps);
    return {training_record(f)};
}

}  // namespace benchmarks
