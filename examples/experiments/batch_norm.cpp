// batch-norm (003's remarks on layer against batch normalisation): LayerNorm normalises each
// position by its own features, so a sequence's output is the same whatever the batch holds;
// BatchNorm normalises each feature by the batch's statistics, which over padded sequences take
// in the pads, and in evaluation by running statistics, which match no one batch.
//
// The same small model three times, differing only in its two norms: LayerNorm, BatchNorm1d, and
// BatchNorm1d whose training statistics skip the pads (a mask). The task: sequences of odd
// lengths 1..15 of tokens worth -1 (1..4) or +1 (5..8), padded to 16; the class is the sign of
// the sum. The batches are bucketed by length, as one batches padded sequences to waste little
// on pads, so a batch of short sequences is mostly pads. Trained on the same batches from the same
// seed, each arm is then measured on held-out batches:
//   pad sensitivity: max |logit change| when the same batch is padded to 32 instead of 16, with the
//                    batch statistics of training mode;
//   train/eval gap:  mean |logit change| between training mode (batch statistics) and evaluation
//                    mode (running statistics) on the same batches;
//   accuracy in evaluation mode.
// The claim holds if, on every seed, LayerNorm's two measures are 0 (within 1e-5), masked
// BatchNorm's pad sensitivity is 0, and unmasked BatchNorm's pad sensitivity and gap exceed 0.05.
#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

#include <fmt/format.h>

#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/statistics.h"
#include "lectern/nn/batch_norm.h"
#include "lectern/nn/embedding.h"
#include "lectern/nn/layer_norm.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/optim/adam.h"
#include "lectern/run/shell/console.h"

namespace run::experiments {

namespace {

using namespace autograd;

enum class NormKind { layer, batch, batch_masked };

const char* norm_name(NormKind k) {
    return k == NormKind::layer ? "LayerNorm" : k == NormKind::batch ? "BatchNorm" : "BatchNorm, masked";
}

constexpr std::int64_t kVocab = 9, kLength = 16, kWidth = 32;

// h = ReLU(norm(W_1 embed(x))), h = ReLU(norm(W_2 h)), the mean of h over the real positions,
// logits = W_3 mean. Pads enter as zero vectors.
class PaddedClassifier : public nn::Module {
public:
    PaddedClassifier(NormKind kind, std::uint64_t seed) : kind_(kind) {
        Generator gen(seed);
        embed = register_module("embed", std::make_shared<nn::Embedding>(kVocab, kWidth, false, gen));
        w1 = register_module("w1", std::make_shared<nn::Linear>(kWidth, kWidth, true, gen));
        w2 = register_module("w2", std::make_shared<nn::Linear>(kWidth, kWidth, true, gen));
        head = register_module("head", std::make_shared<nn::Linear>(kWidth, 2, true, gen));
        for (const char* name : {"norm1", "norm2"}) {
            if (kind == NormKind::layer)
                layer_norms.push_back(register_module(name, std::make_shared<nn::LayerNorm>(kWidth)));
            else batch_norms.push_back(register_module(name, std::make_shared<nn::BatchNorm1d>(kWidth)));
        }
    }
    // tokens [B, T] (0 = pad), mask [B, T] (1 = real) -> logits [B, 2]
    Tensor forward(const Tensor& tokens, const Tensor& mask) const {
        Tensor m = unsqueeze(mask, -1);  // [B, T, 1]
        Tensor h = (*embed)(tokens)*m;
        h = relu(norm(0, (*w1)(h), mask));
        h = relu(norm(1, (*w2)(h), mask));
        return (*head)(sum(h * m, 1) / sum(m, 1));
    }
    std::shared_ptr<nn::Embedding> embed;
    std::shared_ptr<nn::Linear> w1, w2, head;
    std::vector<std::shared_ptr<nn::LayerNorm>> layer_norms;
    std::vector<std::shared_ptr<nn::BatchNorm1d>> batch_norms;

private:
    Tensor norm(std::size_t i, const Tensor& h, const Tensor& mask) const {
        if (kind_ == NormKind::layer) return (*layer_norms[i])(h);
        return (*batch_norms[i])(h, kind_ == NormKind::batch_masked ? mask : Tensor());
    }
    NormKind kind_;
};

struct Batch {
    Tensor tokens, mask, labels;
};

// Sequences of one length, padded to `padded`, with their classes.
Batch make_batch(const std::vector<std::vector<std::int64_t>>& seqs, std::int64_t padded) {
    const auto B = static_cast<std::int64_t>(seqs.size());
    std::vector<double> tok(static_cast<std::size_t>(B * padded), 0), mask(tok.size(), 0), labels;
    for (std::int64_t b = 0; b < B; ++b) {
        const std::vector<std::int64_t>& seq = seqs[static_cast<std::size_t>(b)];
        std::int64_t total = 0;
        for (std::size_t t = 0; t < seq.size(); ++t) {
            tok[static_cast<std::size_t>(b * padded) + t] = static_cast<double>(seq[t]);
            mask[static_cast<std::size_t>(b * padded) + t] = 1;
            total += seq[t] <= 4 ? -1 : 1;
        }
        labels.push_back(total > 0 ? 1 : 0);
    }
    return {tensor(tok, {B, padded}, Dtype::int64), tensor(mask, {B, padded}), tensor(labels, {B}, Dtype::int64)};
}

// Batches of `batch` sequences, each batch of one length (odd, 1..15), in a shuffled order.
std::vector<std::vector<std::vector<std::int64_t>>> bucketed(std::int64_t batches, std::int64_t batch, Generator& gen) {
    std::vector<std::vector<std::vector<std::int64_t>>> out;
    for (std::int64_t i = 0; i < batches; ++i) {
        const std::int64_t length = 1 + 2 * (i % 8);
        std::vector<std::vector<std::int64_t>> seqs;
        for (std::int64_t b = 0; b < batch; ++b) {
            std::vector<std::int64_t> s;
            for (std::int64_t t = 0; t < length; ++t) s.push_back(1 + gen.randint(8));
            seqs.push_back(s);
        }
        out.push_back(seqs);
    }
    for (std::size_t i = out.size(); i > 1; --i)
        std::swap(out[i - 1], out[static_cast<std::size_t>(gen.randint(static_cast<std::int64_t>(i)))]);
    return out;
}

struct Result {
    double pad_sensitivity = 0, gap = 0, accuracy = 0;
};

double max_abs_diff(const Tensor& a, const Tensor& b) {
    double worst = 0;
    auto x = a.to_vector(), y = b.to_vector();
    for (std::size_t i = 0; i < x.size(); ++i) worst = std::max(worst, std::abs(x[i] - y[i]));
    return worst;
}

Result train_and_measure(NormKind kind, std::uint64_t seed, std::int64_t steps, std::int64_t test_batches) {
    PaddedClassifier model(kind, seed);
    Generator data(seed + 1000);
    const auto train = bucketed(steps, 32, data);
    const auto test = bucketed(test_batches, 32, data);
    nn::optim::Adam opt(model.parameters(), {.lr = 3e-3});
    for (const auto& seqs : train) {
        Batch b = make_batch(seqs, kLength);
        opt.zero_grad();
        cross_entropy(model.forward(b.tokens, b.mask), b.labels).backward();
        opt.step();
    }
    NoGradGuard no_grad;
    Result r;
    std::int64_t correct = 0, seen = 0;
    double gap_sum = 0;
    std::int64_t gap_count = 0;
    const nn::StateDict trained = model.state_dict();  // training mode below moves the running statistics
    for (const auto& seqs : test) {
        Batch b16 = make_batch(seqs, kLength), b32 = make_batch(seqs, 2 * kLength);
        model.eval();
        Tensor eval_logits = model.forward(b16.tokens, b16.mask);
        Tensor pred = argmax(eval_logits, -1);
        for (std::int64_t i = 0; i < pred.numel(); ++i)
            correct += pred.data<std::int64_t>()[i] == b16.labels.data<std::int64_t>()[i];
        seen += pred.numel();
        model.train();
        Tensor train16 = model.forward(b16.tokens, b16.mask), train32 = model.forward(b32.tokens, b32.mask);
        model.load_state_dict(trained);
        r.pad_sensitivity = std::max(r.pad_sensitivity, max_abs_diff(train16, train32));
        for (double d : (abs(train16 - eval_logits)).to_vector()) gap_sum += d, ++gap_count;
    }
    r.gap = gap_sum / static_cast<double>(gap_count);
    r.accuracy = static_cast<double>(correct) / static_cast<double>(seen);
    return r;
}

void run_batch_norm(const Options& o) {
    const int seeds = seeds_or(o, o.quick ? 1 : 3);
    const std::int64_t steps = o.quick ? 16 : 800, test_batches = o.quick ? 8 : 64;
    run::say(
        "width {}, two norms each, sequences of odd lengths 1..15 padded to {} (and to {} for the pad "
        "sensitivity), batches of 32 bucketed by length | {} Adam steps at 3e-3 | {} held-out batches | seeds "
        "{}..{}\n",
        kWidth, kLength, 2 * kLength, steps, test_batches, o.seed, o.seed + static_cast<std::uint64_t>(seeds) - 1);
    const std::vector<NormKind> kinds = {NormKind::layer, NormKind::batch, NormKind::batch_masked};
    std::vector<std::vector<Result>> results(kinds.size());
    Table table({"norm", "seed", "pad sensitivity (max |d logit|)", "train/eval gap (mean |d logit|)",
                 "accuracy (evaluation mode)"});
    for (std::size_t k = 0; k < kinds.size(); ++k)
        for (int s = 0; s < seeds; ++s) {
            const std::uint64_t seed = o.seed + static_cast<std::uint64_t>(s);
            Result r = train_and_measure(kinds[k], seed, steps, test_batches);
            run::say("  {:<17} seed {}: pad sensitivity {:.3g}, gap {:.3g}, accuracy {:.2f}%\n", norm_name(kinds[k]),
                     seed, r.pad_sensitivity, r.gap, 100 * r.accuracy);
            table.row({norm_name(kinds[k]), std::to_string(seed), fmt::format("{:.3g}", r.pad_sensitivity),
                       fmt::format("{:.3g}", r.gap), fmt::format("{:.2f}%", 100 * r.accuracy)});
            results[k].push_back(r);
        }
    run::say("\n");
    table.print();

    auto all = [&](std::size_t k, auto pred) { return std::all_of(results[k].begin(), results[k].end(), pred); };
    const bool layer_invariant = all(0, [](const Result& r) { return r.pad_sensitivity <= 1e-5 && r.gap <= 1e-5; });
    const bool masked_invariant = all(2, [](const Result& r) { return r.pad_sensitivity <= 1e-5; });
    const bool batch_polluted = all(1, [](const Result& r) { return r.pad_sensitivity > 0.05 && r.gap > 0.05; });
    auto accuracies = [&](std::size_t k) {
        std::vector<double> v;
        for (const Result& r : results[k]) v.push_back(r.accuracy);
        return v;
    };
    auto gaps = [&](std::size_t k) {
        std::vector<double> v;
        for (const Result& r : results[k]) v.push_back(r.gap);
        return v;
    };
    run::say("\n");
    verdict(
        o, layer_invariant && masked_invariant && batch_polluted,
        fmt::format("LayerNorm's logits {} padding and mode; masked BatchNorm's {} padding; unmasked BatchNorm's {} "
                    "with the padding and between modes (train/eval gap {} against masked {}); accuracy (%) in "
                    "evaluation mode: LayerNorm {}, BatchNorm {}, masked {} ({} seed{})",
                    layer_invariant ? "ignore" : "do NOT ignore", masked_invariant ? "ignore" : "do NOT ignore",
                    batch_polluted ? "move" : "do NOT move", pm(estimate(gaps(1)), 3), pm(estimate(gaps(2)), 3),
                    pm(estimate(accuracies(0)), 1, 100), pm(estimate(accuracies(1)), 1, 100),
                    pm(estimate(accuracies(2)), 1, 100), seeds, seeds > 1 ? "s" : ""));
}

}  // namespace

Experiment batch_norm_experiment() {
    return {"batch-norm",
            "003: layer normalisation treats each position alone; batch normalisation's statistics take in the pads "
            "of a padded batch, and its evaluation mode differs from its training mode",
            run_batch_norm,
            {"--seeds"}};
}

}  // namespace run::experiments
