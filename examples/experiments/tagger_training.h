#pragma once
// A models::SequenceTagger trained with Adam on a labelling task and scored on held-out
// sequences: what table-15-1 and heads compare runs of. A task draws inputs [B, n] (int64) and
// their labels [B, n], -1 where a position is not scored.
#include <cstdint>
#include <functional>

#include "lectern/models/sequence_tagger.h"
#include "lectern/run/shell/memory_budget.h"

namespace run::experiments {

struct LabelledBatch {
    autograd::Tensor x, y;
};
using DrawBatch = std::function<LabelledBatch(std::int64_t batch, autograd::Generator& gen)>;

struct TaggerRun {
    models::SequenceTaggerConfig model;                // model.seed is set to `seed`; model.vocab counts the labels too
    std::int64_t batch = 32, steps = 600, eval = 256;  // eval: held-out sequences
    double lr = 3e-3;
    std::uint64_t seed = 1;    // of the model and the held-out set
    std::uint64_t stream = 0;  // with the seed, which training batches: the runs of one seed on two tasks draw apart
};

// The fraction of the held-out labels (those >= 0) whose most probable class is right.
double train_tagger(const TaggerRun& run, const DrawBatch& draw);

// What train_tagger holds while Adam trains on sequences of `length`: a bound over the three
// kinds of layer (self-attention's projections and feed-forward, the convolutions' k d x d
// kernels and gates, the GRU's six d x d matrices), and the saved tensors of a transformer
// layer per layer (the GRU's gates over T steps and a convolution's outputs are fewer), as
// run::transformer_activations counts them, with the logits [B, T, V] and their softmax; B the
// larger of the batch and the held-out set, which one forward scores.
run::MemoryEstimate tagger_memory(const TaggerRun& r, std::int64_t length);

// Symbols uniform over 1..V-1, [batch, n] as doubles, row-major (a task builds its labels from them).
std::vector<double> uniform_symbols(std::int64_t V, std::int64_t n, std::int64_t batch, autograd::Generator& gen);

}  // namespace run::experiments
