
#include "benchmarks/workloads.h"

#include <algorithm>

#include "benchmarks/machine.h"
#include "benchmarks/training_step.h"
#include "lectern/data/copy_task.h"
#include "lectern/data/image_batches.h"
#include "lectern/models/greedy_decode.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/clip_grad.h"
#include "lectern/nn/loss.h"
#include "lectern/nn/lr_schedule.h"
#include "lectern/nn/optim/adam.h"
#include "lectern/nn/optim/adamw.h"

using namespace autograd;

namespace benchmarks {

const std::vector<Workload>& workloads() {
    static const std::vector<Workload> all = [] {
        std::vector<Workload> w;
        for (const CopyTaskSetup& s : {copy_task_small(), copy_task_annotated()})
            w.push_back({s.workload, s.description, [s](const RunSettings& run) { return bench_copy_task(s, run); }});
        for (const ViTSetup& s : {vit_patch7(), vit_default()})
            w.push_back({s.workload, s.description, [s](const RunSettings& run) { return bench_vit(s, run); }});
        w.push_back({"decode_cached",
                     "greedy decoding per token with the KV cache, 16/64/256 tokens, copy task small model",
                     [](const RunSettings& run) { return bench_decode(Decoding::cached, run); }});
        w.push_back({"decode_recompute",
                     "greedy decoding per token re-decoding the prefix, 16/64/256 tokens, same model",
                     [](const RunSettings& run) { return bench_decode(Decoding::recompute, run); }});
        return w;
    }();
    return all;
}

namespace {

// examples/copy_task.cpp's Options defaults: V=11, pre-norm, seed 1, Adam with
// betas (0.9, 0.98) and eps 1e-9 under the warmup schedule.
models::TransformerConfig copy_task_model(std::int64_t d_model, std::int64_t d_ff, std::int64_t heads) {
    models::TransformerConfig c;
    c.src_vocab = c.tgt_vocab = 11;
    c.n_layers = 2, c.d_model = d_model, c.d_ff = d_ff, c.heads = heads, c.dropout = 0.1;
    c.norm = nn::Norm::pre;
    c.seed = 1;
    return c;
}

}  // namespace

CopyTaskSetup copy_task_small() {
    return {"copy_small",
            "copy task, small (N=2, d_model 64, d_ff 256, h 4, dropout 0.1, batch 80, length 10)",
            copy_task_model(64, 256, 4),
            80,
            10,
            1.0,
            200};
}

CopyTaskSetup copy_task_annotated() {
    return {"copy_annotated",
            "copy task, annotated preset (N=2, d_model 512, d_ff 2048, h 8, dropout 0.1, batch 80)",
            copy_task_model(512, 2048, 8),
            80,
            10,
            0.5,
            400};
}

std::vector<Record> bench_copy_task(const CopyTaskSetup& s, const RunSettings& run) {
    manual_seed(s.model.seed);  // dropout
    auto model = models::make_transformer(s.model);
    model->train();
    nn::optim::Adam opt(model->parameters(), {.lr = 0, .beta1 = 0.9, .beta2 = 0.98, .eps = 1e-9});
    nn::WarmupSchedule schedule(s.model.d_model, s.warmup, 1.0);
    nn::LabelSmoothingLoss criterion(s.model.tgt_vocab, data::kCopyPad, 0.0);
    Generator gen(s.model.seed);
    data::CopyBatch b;
    std::int64_t step = 0;
    TrainingStep training{
        .next_batch = [&] { b = data::copy_task_batch(s.model.src_vocab, s.seq_len, s.batch, gen); },
        .forward =
            [&] {  // examples/copy_task.cpp's batch_loss
                Tensor src_mask = nn::padding_mask(b.src, data::kCopyPad);
                Tensor out = model->forward(b.src, b.tgt_in, src_mask, models::target_mask(b.tgt_in, data::kCopyPad));
                return criterion(model->generator->forward(out), b.tgt_out);
            },
        .update =
            [&] {
                opt.set_lr(s.lr_factor * schedule.lr(++step));
                opt.step();
                opt.zero_grad();
            },
    };
    TrainingFigures f;
    f.workload = s.workload, f.description = s.description, f.unit = "tok";
    f.batch = s.batch;
    f.items_per_step = 2 * s.batch * (s.seq_len - 1);  // source and target tokens, as copy_task's progress bar counts
    f.warmup = run.warmup, f.steps = run.steps;
    f.flops_per_step = transformer_step_flops(
        {s.model.n_layers, s.model.d_model, s.model.d_ff, s.model.tgt_vocab, s.batch, s.seq_len, s.seq_len - 1});
    f.times = time_training_steps(training, run.warmup, run.steps);
    return {training_record(f)};
}

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
    f.flops_per_step =
        vit_step_flops({c.image_size, c.channels, c.patch, c.d_model, c.depth, c.mlp, c.classes, s.batch});
    f.times = time_training_steps(training, run.warmup, run.steps);
    return {training_record(f)};
}

std::vector<std::int64_t> decode_lengths(bool quick) {
    if (quick) return {16};
    return {16, 64, 256};
}

std::vector<Record> bench_decode(Decoding way, const RunSettings& run) {
    const CopyTaskSetup s = copy_task_small();
    auto model = models::make_transformer(s.model);
    Generator gen(s.model.seed);
    const bool cached = way == Decoding::cached;
    std::vector<Record> records;
    for (std::int64_t n : decode_lengths(run.quick)) {
        data::CopyBatch b = data::copy_task_batch(s.model.src_vocab, n + 1, 1, gen);
        Tensor mask = nn::padding_mask(b.src, data::kCopyPad);
        // Short decodings take milliseconds: more runs for them, so the median is not one noisy call.
        const int runs = run.quick ? 1 : static_cast<int>(std::max<std::int64_t>(5, 1280 / n));
        const double seconds = median_seconds(
            [&] {
                if (cached) models::greedy_decode(*model, b.src, mask, n + 1, 1);
                else models::greedy_decode_recompute(*model, b.src, mask, n + 1, 1);
            },
            runs);
        Record r;
        r.strings = {{"framework", "lectern"},
                     {"kind", "decode"},
                     {"workload", cached ? "decode_cached" : "decode_recompute"},
                     {"decoding", cached ? "cached" : "recompute"}};
        r.numbers = {{"tokens", static_cast<double>(n)},
                     {"batch", 1},
                     {"runs", runs},
                     {"ms_per_token", 1e3 * seconds / static_cast<double>(n)},
                     {"peak_rss_mb", peak_rss_mb()}};
        records.push_back(r);
    }
    return records;
}

}  // namespace benchmarks
