#include "benchmarks/copy_task_bench.h"

#include "benchmarks/model_flops.h"
#include "benchmarks/train_timing.h"
#include "data/copy_task.h"
#include "nn/attention_mask.h"
#include "nn/loss.h"
#include "nn/lr_schedule.h"
#include "nn/optim/adam.h"

using namespace autograd;

namespace benchmarks {

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
    return {"copy_small", "copy task, small (N=2, d_model 64, d_ff 256, h 4, dropout 0.1, batch 80, length 10)",
            copy_task_model(64, 256, 4), 80, 10, 1.0, 200};
}

CopyTaskSetup copy_task_annotated() {
    return {"copy_annotated", "copy task, annotated preset (N=2, d_model 512, d_ff 2048, h 8, dropout 0.1, batch 80)",
            copy_task_model(512, 2048, 8), 80, 10, 0.5, 400};
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
    f.flops_per_step = transformer_step_flops({s.model.n_layers, s.model.d_model, s.model.d_ff, s.model.tgt_vocab,
                                               s.batch, s.seq_len, s.seq_len - 1});
    f.times = time_training_steps(training, run.warmup, run.steps);
    return {training_record(f)};
}

}  // namespace benchmarks
