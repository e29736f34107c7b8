#pragma once
// Timing a training step by phase, and the model FLOPs a step computes.
#include <cstdint>
#include <functional>
#include <string>

#include "lectern/autograd/autograd.h"
#include "benchmarks/records.h"

namespace benchmarks {

// Times training steps phase by phase: forward (to the loss), backward, and the
// optimizer (clipping, learning rate, step, zeroing the gradients), after
// warm-up steps that fill the caching allocator and OpenBLAS's buffers. Each
// phase's figure is the median over the timed steps; `step` is the median of
// whole steps (not the sum of the phases' medians). The batch is drawn before
// the clock starts.
struct PhaseTimes {
    double forward_ms = 0, backward_ms = 0, optimizer_ms = 0, step_ms = 0, step_mean_ms = 0;
};

struct TrainingStep {
    std::function<void()> next_batch;           // untimed
    std::function<autograd::Tensor()> forward;  // returns the scalar loss
    std::function<void()> update;               // after loss.backward()
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

// Model FLOPs of one training step, counted analytically from the shapes: only
// the matrix products, as model-FLOP-utilisation figures usually are (the
// elementwise ops, softmax, layer norm, the loss and the optimizer are a small
// share and not counted).
//   A product of [m, k] by [k, n] costs 2 m k n FLOPs (a multiply and an add).
//   Its backward costs two products of the same size: dA = dC B^T, dB = A^T dC.
//   So forward + backward = 3 x the forward's products, less dA where A needs no
//   gradient (the ViT's pixels into the patch projection).
//   A Linear on M tokens of width `in` to `out` is a [M, in] x [in, out] product;
//   attention over (batch, head) is Q K^T and P V, each 2 B Tq Tk d_model summed
//   over the heads (d_k h = d_model). A causal mask is not subtracted: the
//   scores are computed in full and then masked.
struct TransformerShape {
    std::int64_t layers, d_model, d_ff, vocab, batch, src_len, tgt_len;
};

struct ViTShape {
    std::int64_t image_size, channels, patch, d_model, depth, mlp, classes, batch;
};

double transformer_step_flops(const TransformerShape& s);
double vit_step_flops(const ViTShape& s);

}  // namespace benchmarks
