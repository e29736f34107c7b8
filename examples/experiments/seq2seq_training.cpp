#include "examples/experiments/seq2seq_training.h"

#include <chrono>
#include <cmath>
#include <functional>

#include "examples/experiments/scaling.h"
#include "lectern/models/greedy_decode.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/clip_grad.h"
#include "lectern/nn/loss.h"
#include "lectern/nn/lr_schedule.h"
#include "lectern/nn/non_finite.h"
#include "lectern/nn/optim/adam.h"

namespace run::experiments {

using namespace autograd;

namespace {

// What the loop needs of a run, whichever model it trains.
struct TaskRun {
    data::SequenceTask task;
    std::int64_t vocab, seq_len, batch, steps;
    std::uint64_t seed;
    std::int64_t eval_sequences;
};

// What the loop needs of a model: teacher forcing's log-probabilities [B, L-1, V] of a batch, and
// greedy decoding's tokens [B, L] of a source, the start symbol first.
struct Trainee {
    const nn::Module& module;
    std::function<Tensor(const data::CopyBatch&)> log_probs;
    std::function<Tensor(const Tensor& src)> decode;
};

// Held-out sequences, drawn from a stream training never draws from.
void evaluate(const Trainee& m, const TaskRun& run, Seq2SeqResult& r) {
    NoGradGuard no_grad;
    nn::EvalGuard eval(m.module);
    Generator gen(run.seed + 1000003);
    data::CopyBatch b = data::sequence_task_batch(run.task, run.vocab, run.seq_len, run.eval_sequences, gen);
    r.held_out_loss = nn::nll_loss(m.log_probs(b), b.tgt_out, data::kCopyPad).item();
    Tensor decoded = m.decode(b.src);
    std::int64_t right_tokens = 0, right_sequences = 0;
    for (std::int64_t i = 0; i < run.eval_sequences; ++i) {
        bool all = true;
        for (std::int64_t t = 1; t < run.seq_len; ++t) {
            const bool right = decoded.at({i, t}) == b.tgt_out.at({i, t - 1});
            right_tokens += right;
            all = all && right;
        }
        right_sequences += all;
    }
    r.held_out_token_accuracy =
        static_cast<double>(right_tokens) / static_cast<double>(run.eval_sequences * (run.seq_len - 1));
    r.held_out_exact = static_cast<double>(right_sequences) / static_cast<double>(run.eval_sequences);
}

// Teacher forcing on fresh batches of the task (the same batches for every model of a seed), the
// rate lr(step), the gradient clipped to `clip` (0: not), a stop at the first loss or gradient that
// is not finite; then the held-out evaluation.
Seq2SeqResult train(const Trainee& m, const TaskRun& run, nn::optim::Optimizer& opt,
                    const std::function<double(std::int64_t)>& lr, double clip, double smoothing) {
    nn::LabelSmoothingLoss criterion(run.vocab, data::kCopyPad, smoothing);
    Generator batches(run.seed);
    Seq2SeqResult r;
    const auto start = std::chrono::steady_clock::now();
    for (std::int64_t step = 1; step <= run.steps; ++step) {
        data::CopyBatch b = data::sequence_task_batch(run.task, run.vocab, run.seq_len, run.batch, batches);
        const double cpu = thread_cpu_seconds();
        opt.zero_grad();
        Tensor loss = criterion(m.log_probs(b), b.tgt_out);
        const double value = loss.item();
        if (!std::isfinite(value)) {
            r.diverged = true;
            break;
        }
        loss.backward();
        try {
            nn::check_finite_gradients(m.module, step);
        } catch (const nn::NonFiniteError&) {
            r.diverged = true;
            break;
        }
        if (clip > 0) nn::clip_grad_norm_(m.module.parameters(), clip);
        opt.set_lr(lr(step));
        opt.step();
        r.step_seconds.push_back(thread_cpu_seconds() - cpu);
        r.steps.push_back(static_cast<double>(step));
        r.train_loss.push_back(value);
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (r.diverged) {
        r.held_out_loss = std::nan("");
        return r;
    }
    evaluate(m, run, r);
    return r;
}

}  // namespace

Seq2SeqResult train_seq2seq(const Seq2SeqRun& run) {
    models::TransformerConfig config = run.model;
    config.src_vocab = config.tgt_vocab = run.vocab;
    config.seed = run.seed;
    auto model = models::make_transformer(config);
    const Trainee trainee{
        *model,
        [&](const data::CopyBatch& b) {
            Tensor src_mask = nn::padding_mask(b.src, data::kCopyPad);
            Tensor out = model->forward(b.src, b.tgt_in, src_mask, models::target_mask(b.tgt_in, data::kCopyPad));
            return model->generator->forward(out);  // [B, L-1, V]
        },
        [&](const Tensor& src) {
            return models::greedy_decode(*model, src, nn::padding_mask(src, data::kCopyPad), run.seq_len, 1).tokens;
        }};
    nn::optim::Adam opt(model->parameters(), {.lr = 0, .beta1 = 0.9, .beta2 = 0.98, .eps = 1e-9});
    nn::WarmupSchedule schedule(config.d_model, std::max<std::int64_t>(run.warmup, 1), run.lr_factor);
    Seq2SeqResult r = train(
        trainee, {run.task, run.vocab, run.seq_len, run.batch, run.steps, run.seed, run.eval_sequences}, opt,
        [&](std::int64_t step) { return run.warmup > 0 ? schedule.lr(step) : run.lr_factor; }, 0, run.smoothing);
    if (!r.diverged) r.model = model;
    return r;
}

Seq2SeqResult train_rnn_seq2seq(const RnnSeq2SeqRun& run) {
    models::RnnSeq2SeqConfig config = run.model;
    config.src_vocab = config.tgt_vocab = run.vocab;
    config.pad = data::kCopyPad;
    config.seed = run.seed;
    auto model = std::make_shared<models::RnnSeq2Seq>(config);
    const Trainee trainee{*model, [&](const data::CopyBatch& b) { return model->forward(b.src, b.tgt_in); },
                          [&](const Tensor& src) { return models::greedy_decode(*model, src, run.seq_len, 1).tokens; }};
    nn::optim::Adam opt(model->parameters(), {.lr = run.lr});
    Seq2SeqResult r = train(
        trainee, {run.task, run.vocab, run.seq_len, run.batch, run.steps, run.seed, run.eval_sequences}, opt,
        [&](std::int64_t) { return run.lr; }, run.clip, 0);
    if (!r.diverged) r.rnn = model;
    return r;
}

run::MemoryEstimate encoder_decoder_memory(const models::TransformerConfig& model, std::int64_t V, std::int64_t T,
                                           std::int64_t B) {
    const auto N = static_cast<double>(model.n_layers), D = static_cast<double>(model.d_model),
               F = static_cast<double>(model.d_ff), H = static_cast<double>(model.heads), v = static_cast<double>(V),
               t = static_cast<double>(T), b = static_cast<double>(B), positions = static_cast<double>(model.max_len);
    run::MemoryEstimate e;
    e.parameters = 3 * v * D + 2 * positions * D + N * (4 * D * D + 2 * D * F) + N * (8 * D * D + 2 * D * F);
    e.activations = run::transformer_activations(N, b, t, D, F, H, t) +
                    run::transformer_activations(1.5 * N, b, t, D, F, H, t) + 3 * b * t * v;
    if (model.compatibility == nn::Compatibility::additive) e.activations += 3 * N * 2 * b * t * t * D;
    return e;
}

run::MemoryEstimate seq2seq_memory(const Seq2SeqRun& r) {
    return encoder_decoder_memory(r.model, r.vocab, r.seq_len, r.batch);
}

}  // namespace run::experiments
