#pragma once
// The encoder-decoder Transformer trained on a sequence task (copy, reverse,
// sort: data/sequence_tasks.h) as the copy task trains it (001's full post):
// Adam (beta2 0.98, eps 1e-9), teacher forcing, the Transformer's warm-up
// schedule, then scored on held-out sequences by greedy decoding. What the
// experiments compare runs of. The RNN encoder-decoder with attention
// (models/rnn_seq2seq.h) trains by the same loop on the same batches, with an
// RNN's own recipe (train_rnn_seq2seq).
#include <cstdint>
#include <memory>
#include <vector>

#include "lectern/data/sequence_tasks.h"
#include "lectern/models/rnn_seq2seq.h"
#include "lectern/models/transformer.h"
#include "lectern/run/shell/memory_budget.h"

namespace run::experiments {

struct Seq2SeqRun {
    models::TransformerConfig model;  // src_vocab and tgt_vocab are set to `vocab`
    data::SequenceTask task = data::SequenceTask::copy;
    std::int64_t vocab = 11, seq_len = 10, batch = 32, steps = 400;
    // warmup > 0: lr(s) = lr_factor * d_model^-0.5 * min(s^-0.5, s warmup^-1.5) (001);
    // warmup = 0: no warm-up, the constant rate lr_factor.
    std::int64_t warmup = 100;
    double lr_factor = 1.0;
    double smoothing = 0.0;  // label smoothing of the training loss (001's full post, LabelSmoothing)
    std::uint64_t seed = 1;  // of the model (model.seed is set to it), the batches and the held-out set
    std::int64_t eval_sequences = 200;
};

struct Seq2SeqResult {
    std::vector<double> steps, train_loss;  // the training loss at every step (smoothed if smoothing > 0)
    double held_out_loss = 0;               // negative log-likelihood per target token, teacher forcing, no smoothing
    double held_out_token_accuracy = 0;     // of greedily decoded tokens, position by position
    double held_out_exact = 0;              // of greedily decoded sequences, all tokens right
    bool diverged = false;                  // the loss or a gradient stopped being finite; training stopped there
    double seconds = 0;                     // of training
    // Each step's CPU time on the calling thread, forward, backward and update (the batch's drawing
    // left out): all of a step's work when the kernels run on that thread alone (scaling.h, OneThread).
    std::vector<double> step_seconds;
    std::shared_ptr<models::Transformer> model;  // the trained model, for an experiment's own tests
    std::shared_ptr<models::RnnSeq2Seq> rnn;     // train_rnn_seq2seq's trained model
};

Seq2SeqResult train_seq2seq(const Seq2SeqRun& run);

// The RNN encoder-decoder with additive attention on the same tasks, batches and held-out set as
// a Seq2SeqRun of the same seed: Adam at a constant rate with PyTorch's defaults, the gradient's
// norm clipped (an RNN's usual recipe: a recurrence's gradient can grow step by step).
struct RnnSeq2SeqRun {
    models::RnnSeq2SeqConfig model;  // src_vocab and tgt_vocab are set to `vocab`, pad to data::kCopyPad
    data::SequenceTask task = data::SequenceTask::copy;
    std::int64_t vocab = 11, seq_len = 10, batch = 32, steps = 400;
    double lr = 3e-3;
    double clip = 1.0;       // the largest norm of all gradients together; 0: no clipping
    std::uint64_t seed = 1;  // of the model (model.seed is set to it), the batches and the held-out set
    std::int64_t eval_sequences = 200;
};

Seq2SeqResult train_rnn_seq2seq(const RnnSeq2SeqRun& run);

// What an encoder-decoder of N layers (width D, feed-forward F, H heads, V symbols, position
// tables max_len long) holds while Adam trains it on batches of B sequences of T, as
// examples/copy_task.cpp estimates its own: the decoder's layers hold two attentions, the
// generator's logits [B, T, V] are kept with their softmax, and additive scores keep
// tanh(q_i + k_j) and its product with v, [B, H, T, T, d_k] each, per attention.
run::MemoryEstimate encoder_decoder_memory(const models::TransformerConfig& model, std::int64_t V, std::int64_t T,
                                           std::int64_t B);

// train_seq2seq's step (its held-out evaluation, without gradients, keeps less).
run::MemoryEstimate seq2seq_memory(const Seq2SeqRun& r);

}  // namespace run::experiments
