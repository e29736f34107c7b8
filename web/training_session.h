#pragma once
// The copy task as a page trains it (docs/web.md): examples/copy_task's default run,
// its model, data, optimizer and schedule, one step at a time, so that a caller (the
// page's Web Worker) draws between steps, stops and resumes. The knobs of
// docs/start-here.md that the page offers are a SessionConfig; everything else is
// copy_task's default preset. With the same knobs and seed a session draws the same
// model, batches and held-out sequences as copy_task, so its losses are copy_task's
// wherever the matrix products round alike (docs/web.md), and it ends in the
// exact-match line copy_task prints.
#include <cstdint>
#include <memory>
#include <string>

#include "lectern/autograd/autograd.h"
#include "lectern/data/sequence_tasks.h"
#include "lectern/models/transformer.h"
#include "lectern/nn/loss.h"
#include "lectern/nn/lr_schedule.h"
#include "lectern/nn/optim/adam.h"
#include "lectern/plot/attention_page.h"

namespace web {

// The page's knobs, named as copy_task's flags are.
struct SessionConfig {
    std::string task = "copy";             // --task: copy or reverse
    std::string positions = "sinusoidal";  // --positions: sinusoidal, learned or none
    std::string scores = "scaled";         // scaled, unscaled (--unscaled) or additive (--attention additive)
    std::int64_t heads = 4;                // --heads: divides d_model (64)
    std::int64_t layers = 2;               // --layers: N, in each stack
    std::string norm = "pre";              // --norm: pre or post
    std::int64_t warmup = 200;             // --warmup: steps of the schedule's rise
    std::uint64_t seed = 1;                // --seed: initialisation and data
    std::int64_t steps = 1500;             // copy_task's 30 epochs of 50 batches
};

// copy_task's default preset where the page has no knob.
inline constexpr std::int64_t kVocab = 11, kSeqLen = 10, kDModel = 64, kDFF = 256, kBatch = 64;
inline constexpr std::int64_t kEvalSequences = 1000, kShow = 5;

// The knobs from a JSON object ({"task": "reverse", "heads": 8}; a knob left out keeps
// its default). autograd::ValueError, one line naming the knob, the value and what it
// may be, for an unknown knob, a value of the wrong type or one out of range.
SessionConfig parse_config(const std::string& json);

// The same checks on a config built in C++.
void check_config(const SessionConfig& config);

class TrainingSession {
public:
    explicit TrainingSession(const SessionConfig& config);  // checks config first

    // One training step (teacher forcing, Adam, the warm-up schedule): the batch's loss.
    // autograd::ValueError after the last step; a NaN or infinite loss or gradient
    // throws as copy_task stops on one (nn/non_finite.h).
    double step();
    std::int64_t steps_done() const { return step_; }
    bool done() const { return step_ >= config_.steps; }
    const SessionConfig& config() const { return config_; }

    // The attention of the first held-out sequence (the one copy_task --figures draws),
    // decoded by the model as it now is: encoder self-, decoder self- and cross-attention.
    plot::AttentionPage attention() const;

    // copy_task's evaluation: kShow held-out sequences decoded for the eye, then the
    // exact-match line over kEvalSequences of them, in copy_task's words.
    struct Evaluation {
        std::string shown;  // "  input ...\n  output ...   match\n", as copy_task prints them
        std::string line;   // "exact-match accuracy: N/M = P% of held-out sequences copied exactly"
        std::int64_t correct = 0, seen = 0;
    };
    Evaluation evaluate() const;

private:
    data::CopyBatch batch(std::int64_t size, autograd::Generator& gen) const;
    autograd::Tensor batch_loss(const data::CopyBatch& b) const;

    SessionConfig config_;
    data::SequenceTask task_;
    std::shared_ptr<models::Transformer> model_;
    std::unique_ptr<nn::optim::Adam> opt_;
    nn::WarmupSchedule schedule_;
    nn::LabelSmoothingLoss criterion_;
    autograd::Generator batches_;
    std::int64_t step_ = 0;
};

}  // namespace web
