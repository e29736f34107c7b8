#pragma once
// Times training steps phase by phase: forward (to the loss), backward, and the
// optimizer (clipping, learning rate, step, zeroing the gradients), after
// warm-up steps that fill the caching allocator and OpenBLAS's buffers. Each
// phase's figure is the median over the timed steps; `step` is the median of
// whole steps (not the sum of the phases' medians). The batch is drawn before
// the clock starts.
#include <cstdint>
#include <functional>
#include <string>

#include "autograd/autograd.h"
#include "benchmarks/record.h"

namespace benchmarks {

struct PhaseTimes {
    double forward_ms = 0, backward_ms = 0, optimizer_ms = 0, step_ms = 0, step_mean_ms = 0;
};

struct TrainingStep {
    std::function<void()> next_batch;             // untimed
    std::function<autograd::Tensor()> forward;    // returns the scalar loss
    std::function<void()> update;                 // after loss.backward()
};

PhaseTimes time_training_steps(const TrainingStep& step, int warmup, int steps);

// What one training workload reports: its phases, what a step processes
// (`items` of `unit`: "tok" or "img"), its model FLOPs and this process's peak RSS.
struct TrainingFigures {
    std::string workload, description, unit;
    std::int64_t batch = 0, items_per_step = 0;
    int warmup = 0, steps = 0;
    double flops_per_step = 0;
    PhaseTimes times;
};
Record training_record(const TrainingFigures& f);

}  // namespace benchmarks
