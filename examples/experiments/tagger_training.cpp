#include "examples/experiments/tagger_training.h"

#include <algorithm>
#include <cmath>

#include "lectern/nn/optim/adam.h"

namespace run::experiments {

using namespace autograd;

std::vector<double> uniform_symbols(std::int64_t V, std::int64_t n, std::int64_t batch, Generator& gen) {
    std::vector<double> x = rand({batch, n}, gen, Dtype::float64).to_vector();
    for (double& v : x)
        v = 1 + std::min<double>(static_cast<double>(V - 2), std::floor(v * static_cast<double>(V - 1)));
    return x;
}

double train_tagger(const TaggerRun& run, const DrawBatch& draw) {
    models::SequenceTaggerConfig c = run.model;
    c.seed = run.seed;
    models::SequenceTagger model(c);
    nn::optim::Adam opt(model.parameters(), {.lr = run.lr});
    Generator gen(run.seed * 7919 + run.stream);
    for (std::int64_t step = 0; step < run.steps; ++step) {
        const LabelledBatch b = draw(run.batch, gen);
        const std::int64_t rows = b.x.size(0) * b.x.size(1);
        Tensor loss = cross_entropy(reshape(model(b.x), {rows, c.vocab}), reshape(b.y, {rows}), -1);
        opt.zero_grad();
        loss.backward();
        opt.step();
    }
    NoGradGuard no_grad;
    Generator held_out(1000003 + run.seed);
    const LabelledBatch b = draw(run.eval, held_out);
    const std::vector<double> logits = model(b.x).to_vector(), y = b.y.to_vector();
    std::int64_t right = 0, counted = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
        if (y[i] < 0) continue;
        const double* row = logits.data() + i * static_cast<std::size_t>(c.vocab);
        const auto best = std::max_element(row, row + c.vocab) - row;
        right += best == static_cast<std::int64_t>(y[i]), ++counted;
    }
    return static_cast<double>(right) / static_cast<double>(counted);
}

run::MemoryEstimate tagger_memory(const TaggerRun& r, std::int64_t length) {
    const models::SequenceTaggerConfig& c = r.model;
    const auto N = static_cast<double>(c.n_layers), D = static_cast<double>(c.d_model), F = static_cast<double>(c.d_ff),
               H = static_cast<double>(c.heads), V = static_cast<double>(c.vocab), T = static_cast<double>(length),
               B = static_cast<double>(std::max(r.batch, r.eval)), k = static_cast<double>(c.kernel);
    run::MemoryEstimate e;
    e.parameters =
        2 * V * D + static_cast<double>(c.max_len) * D + N * (4 * D * D + 2 * D * F + 2 * k * D * D + 6 * D * D);
    e.activations = run::transformer_activations(N, B, T, D, F, H, T) + 3 * B * T * V;
    return e;
}

}  // namespace run::experiments
