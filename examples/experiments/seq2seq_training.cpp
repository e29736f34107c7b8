#include "examples/experiments/seq2seq_training.h"

#include <chrono>
#include <cmath>

#include "lectern/models/greedy_decode.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/loss.h"
#include "lectern/nn/lr_schedule.h"
#include "lectern/nn/non_finite.h"
#include "lectern/nn/optim/adam.h"

namespace run::experiments {

using namespace autograd;

namespace {

Tensor batch_log_probs(const models::Transformer& model, const data::CopyBatch& b) {
    Tensor src_mask = nn::padding_mask(b.src, data::kCopyPad);
    Tensor out = model.forward(b.src, b.tgt_in, src_mask, models::target_mask(b.tgt_in, data::kCopyPad));
    return model.generator->forward(out);  // [B, L-1, V]
}

// Held-out sequences, drawn from a stream training never draws from.
void evaluate(const models::Transformer& model, const Seq2SeqRun& run, Seq2SeqResult& r) {
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    Generator gen(run.seed + 1000003);
    data::CopyBatch b = data::sequence_task_batch(run.task, run.vocab, run.seq_len, run.eval_sequences, gen);
    r.held_out_loss = nn::nll_loss(batch_log_probs(model, b), b.tgt_out, data::kCopyPad).item();
    Tensor decoded = models::greedy_decode(model, b.src, nn::padding_mask(b.src, data::kCopyPad), run.seq_len, 1).tokens;
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

}  // namespace

Seq2SeqResult train_seq2seq(const Seq2SeqRun& run) {
    models::TransformerConfig config = run.model;
    config.src_vocab = config.tgt_vocab = run.vocab;
    config.seed = run.seed;
    auto model = models::make_transformer(config);
    nn::optim::Adam opt(model->parameters(), {.lr = 0, .beta1 = 0.9, .beta2 = 0.98, .eps = 1e-9});
    nn::WarmupSchedule schedule(config.d_model, std::max<std::int64_t>(run.warmup, 1), run.lr_factor);
    nn::LabelSmoothingLoss criterion(run.vocab, data::kCopyPad, run.smoothing);
    Generator batches(run.seed);
    Seq2SeqResult r;
    const auto start = std::chrono::steady_clock::now();
    for (std::int64_t step = 1; step <= run.steps; ++step) {
        data::CopyBatch b = data::sequence_task_batch(run.task, run.vocab, run.seq_len, run.batch, batches);
        opt.zero_grad();
        Tensor loss = criterion(batch_log_probs(*model, b), b.tgt_out);
        const double value = loss.item();
        if (!std::isfinite(value)) {
            r.diverged = true;
            break;
        }
        loss.backward();
        try {
            nn::check_finite_gradients(*model, step);
        } catch (const nn::NonFiniteError&) {
            r.diverged = true;
            break;
        }
        opt.set_lr(run.warmup > 0 ? schedule.lr(step) : run.lr_factor);
        opt.step();
        r.steps.push_back(static_cast<double>(step));
        r.train_loss.push_back(value);
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (r.diverged) {
        r.held_out_loss = std::nan("");
        return r;
    }
    evaluate(*model, run, r);
    r.model = model;
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
