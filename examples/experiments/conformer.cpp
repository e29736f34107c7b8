// conformer (004 §15.5.7, 000 §15.5.7): the conformer adds convolutional layers inside the
// transformer, for speech, where what a frame means depends on its neighbours and on the whole
// utterance. A convolution sees a window in one layer; attention sees the whole sequence in one
// layer but must learn where a neighbour is from the positional code. So on a task that needs
// both, the conformer should learn faster than the plain encoder at the same parameter count.
//
// The task (a tagger, one class per token): sequences of T = 32 tokens, digits 0..8 drawn
// uniformly, and with probability 1/2 one marker token (9, worth 0 in the sums) at a uniformly
// drawn position. Token t's class is
//   y_t = ((x_{t-1} + x_t + x_{t+1}) mod 3) + 3 [the sequence holds the marker],
// zeros past either end: a local part (a window of three) and a global part (one token anywhere,
// up to 31 positions away). Six classes; knowing only the local part caps accuracy at 1/2, only
// the global part at 1/3.
//
// Two encoders of two blocks each, D 32, 4 heads, the same embedding, sinusoidal positions and
// linear head: conformer blocks (models::ConformerBlock, d_ff 64, kernel 7) and pre-norm
// Transformer encoder layers (models::EncoderLayer, ReLU FFN of d_ff 185 and a final
// LayerNorm), whose parameter counts are within 1%. Adam at 1e-3 on fresh batches of 32, the
// same batches for both arms of a seed; held-out per-token accuracy on 512 sequences, split into
// its local and global parts. The claim holds if the conformer's final held-out accuracy exceeds
// the encoder's by more than two standard errors, paired by seed, and its lead is larger in the
// local part than in the global one (the convolution's part, not attention's).
#include <chrono>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/statistics.h"
#include "lectern/models/conformer_block.h"
#include "lectern/models/encoder_layer.h"
#include "lectern/nn/embedding.h"
#include "lectern/nn/layer_norm.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/optim/adam.h"
#include "lectern/nn/sinusoidal_positional_encoding.h"
#include "lectern/run/shell/console.h"

namespace run::experiments {

namespace {

using namespace autograd;

constexpr std::int64_t kLength = 32, kMarker = 9, kVocab = 10, kClasses = 6, kWidth = 32, kHeads = 4, kBlocks = 2;
constexpr std::int64_t kConformerFF = 64, kKernel = 7, kEncoderFF = 185, kBatch = 32;

struct Batch {
    Tensor tokens, labels;  // [B, T] int64 both
};

// B sequences of the task above, drawn from `gen`.
Batch draw_batch(std::int64_t B, Generator& gen) {
    std::vector<double> tokens(static_cast<std::size_t>(B * kLength)), labels(tokens.size());
    for (std::int64_t b = 0; b < B; ++b) {
        double* x = tokens.data() + b * kLength;
        for (std::int64_t t = 0; t < kLength; ++t) x[t] = static_cast<double>(gen.randint(9));
        const bool marked = gen.randint(2) == 1;
        if (marked) x[gen.randint(kLength)] = kMarker;
        auto value = [&](std::int64_t t) {
            return t < 0 || t >= kLength || x[t] == kMarker ? 0 : static_cast<std::int64_t>(x[t]);
        };
        for (std::int64_t t = 0; t < kLength; ++t)
            labels[static_cast<std::size_t>(b * kLength + t)] =
                static_cast<double>((value(t - 1) + value(t) + value(t + 1)) % 3 + (marked ? 3 : 0));
    }
    return {tensor(tokens, {B, kLength}, Dtype::int64), tensor(labels, {B, kLength}, Dtype::int64)};
}

// embed -> + sinusoid -> two blocks -> linear head, one class per token; the blocks conformer
// blocks or pre-norm encoder layers (these followed by a LayerNorm, as a pre-norm stack ends;
// a conformer block ends in its own).
class Tagger : public nn::Module {
public:
    Tagger(bool conformer, std::uint64_t seed) {
        Generator gen(seed);
        embed = register_module("embed", std::make_shared<nn::Embedding>(kVocab, kWidth, true, gen));
        positions =
            register_module("positions", std::make_shared<nn::SinusoidalPositionalEncoding>(kWidth, 0.0, kLength));
        const nn::BlockConfig conformer_config{kWidth, kHeads, kConformerFF, 0.0},
            encoder_config{kWidth, kHeads, kEncoderFF, 0.0};
        if (conformer) {
            conformer_blocks = register_module("blocks", std::make_shared<nn::ModuleList<models::ConformerBlock>>());
            for (std::int64_t i = 0; i < kBlocks; ++i)
                conformer_blocks->push_back(std::make_shared<models::ConformerBlock>(conformer_config, kKernel, gen));
        } else {
            encoder_layers = register_module("blocks", std::make_shared<nn::ModuleList<models::EncoderLayer>>());
            for (std::int64_t i = 0; i < kBlocks; ++i)
                encoder_layers->push_back(std::make_shared<models::EncoderLayer>(encoder_config, gen));
        }
        if (!conformer) final_norm = register_module("final_norm", std::make_shared<nn::LayerNorm>(kWidth));
        head = register_module("head", std::make_shared<nn::Linear>(kWidth, kClasses, true, gen));
    }
    // tokens [B, T] -> logits [B, T, 6]
    Tensor forward(const Tensor& tokens) const {
        Tensor h = (*positions)((*embed)(tokens));
        if (conformer_blocks) {
            for (const auto& block : *conformer_blocks) h = block->forward(h);
            return (*head)(h);
        }
        for (const auto& layer : *encoder_layers) h = layer->forward(h, Tensor());
        return (*head)((*final_norm)(h));
    }
    std::shared_ptr<nn::Embedding> embed;
    std::shared_ptr<nn::SinusoidalPositionalEncoding> positions;
    std::shared_ptr<nn::ModuleList<models::ConformerBlock>> conformer_blocks;  // one of the two
    std::shared_ptr<nn::ModuleList<models::EncoderLayer>> encoder_layers;
    std::shared_ptr<nn::LayerNorm> final_norm;  // the encoder's
    std::shared_ptr<nn::Linear> head;
};

// Held-out per-token accuracy, and of its two parts: the class mod 3 (the local window) and the
// class / 3 (the marker).
struct Accuracy {
    double all = 0, local = 0, global = 0;
};

Accuracy evaluate(const Tagger& model, const Batch& test) {
    NoGradGuard no_grad;
    const Tensor pred = argmax(model.forward(test.tokens), -1);
    const std::int64_t* p = pred.data<std::int64_t>();
    const std::int64_t* y = test.labels.data<std::int64_t>();
    Accuracy a;
    for (std::int64_t i = 0; i < pred.numel(); ++i) {
        a.all += p[i] == y[i];
        a.local += p[i] % 3 == y[i] % 3;
        a.global += p[i] / 3 == y[i] / 3;
    }
    const auto n = static_cast<double>(pred.numel());
    return {a.all / n, a.local / n, a.global / n};
}

struct Run {
    Accuracy final;
    std::vector<double> curve;  // held-out accuracy at each evaluation step
    double ms_per_step = 0;
};

Run train(bool conformer, std::uint64_t seed, std::int64_t steps, std::int64_t every, const Batch& test) {
    Tagger model(conformer, seed);
    nn::optim::Adam opt(model.parameters(), {.lr = 1e-3});
    Generator data(seed + 1000);  // the same batches for both arms of a seed
    Run r;
    double seconds = 0;
    for (std::int64_t step = 1; step <= steps; ++step) {
        const Batch b = draw_batch(kBatch, data);
        const auto start = std::chrono::steady_clock::now();
        opt.zero_grad();
        cross_entropy(reshape(model.forward(b.tokens), {-1, kClasses}), reshape(b.labels, {-1})).backward();
        opt.step();
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (step % every == 0) r.curve.push_back(evaluate(model, test).all);
    }
    r.final = evaluate(model, test);
    r.ms_per_step = 1000 * seconds / static_cast<double>(steps);
    return r;
}

void run_conformer(const Options& o) {
    const int seeds = seeds_or(o, o.quick ? 1 : 3);
    const std::int64_t steps = o.quick ? 20 : 1500, every = o.quick ? 10 : 100, test_size = o.quick ? 64 : 512;
    const auto conformer_params = Tagger(true, 0).parameter_count(),
               encoder_params = Tagger(false, 0).parameter_count();
    run::say(
        "tagging T = {} tokens: y_t = (x_(t-1) + x_t + x_(t+1)) mod 3, + 3 if the sequence holds the marker | "
        "{} blocks of D {}, {} heads: conformer (d_ff {}, kernel {}, {} parameters) against the pre-norm encoder "
        "(d_ff {}, {} parameters) | {} Adam steps at 1e-3, batch {} | {} held-out sequences | seeds {}..{}\n",
        kLength, kBlocks, kWidth, kHeads, kConformerFF, kKernel, conformer_params, kEncoderFF, encoder_params, steps,
        kBatch, test_size, o.seed, o.seed + static_cast<std::uint64_t>(seeds) - 1);
    Generator test_gen(o.seed + 999);
    const Batch test = draw_batch(test_size, test_gen);

    std::vector<Run> conformer_runs, encoder_runs;
    Table table({"model", "seed", "accuracy", "local part (mod 3)", "global part (marker)", "ms per step"});
    auto add = [&](const char* name, std::uint64_t seed, const Run& r) {
        run::say("  {:<9} seed {}: accuracy {:.2f}% (local {:.2f}%, global {:.2f}%), {:.1f} ms per step\n", name, seed,
                 100 * r.final.all, 100 * r.final.local, 100 * r.final.global, r.ms_per_step);
        table.row({name, std::to_string(seed), fmt::format("{:.2f}%", 100 * r.final.all),
                   fmt::format("{:.2f}%", 100 * r.final.local), fmt::format("{:.2f}%", 100 * r.final.global),
                   fmt::format("{:.1f}", r.ms_per_step)});
    };
    for (int s = 0; s < seeds; ++s) {
        const std::uint64_t seed = o.seed + static_cast<std::uint64_t>(s);
        conformer_runs.push_back(train(true, seed, steps, every, test));
        add("conformer", seed, conformer_runs.back());
        encoder_runs.push_back(train(false, seed, steps, every, test));
        add("encoder", seed, encoder_runs.back());
    }
    run::say("\n");
    table.print();

    auto field = [](const std::vector<Run>& runs, auto get) {
        std::vector<double> v;
        for (const Run& r : runs) v.push_back(get(r));
        return v;
    };
    auto accuracy = [&](const std::vector<Run>& runs) { return field(runs, [](const Run& r) { return r.final.all; }); };
    auto local = [&](const std::vector<Run>& runs) { return field(runs, [](const Run& r) { return r.final.local; }); };
    auto global = [&](const std::vector<Run>& runs) {
        return field(runs, [](const Run& r) { return r.final.global; });
    };
    auto ms = [&](const std::vector<Run>& runs) { return field(runs, [](const Run& r) { return r.ms_per_step; }); };
    const Estimate lead = paired_difference(accuracy(conformer_runs), accuracy(encoder_runs));
    const Estimate local_lead = paired_difference(local(conformer_runs), local(encoder_runs));
    const Estimate global_lead = paired_difference(global(conformer_runs), global(encoder_runs));

    // Mean held-out accuracy over the seeds against the step, one standard error each side.
    auto curve = [&](const char* name, const std::vector<Run>& runs) {
        plot::Curve c{name, {}, {}, true};
        for (std::size_t i = 0; i < runs.front().curve.size(); ++i) {
            const Estimate e = estimate(field(runs, [i](const Run& r) { return r.curve[i]; }));
            c.x.push_back(static_cast<double>((static_cast<std::int64_t>(i) + 1) * every));
            c.y.push_back(100 * e.mean);
            c.error.push_back(std::isfinite(e.standard_error) ? 100 * e.standard_error : 0);
        }
        return c;
    };
    const Estimate conformer_ms = estimate(ms(conformer_runs)), encoder_ms = estimate(ms(encoder_runs));
    draw(
        o, "experiments_conformer",
        plot::Figure{fmt::format("conformer: local window and global marker, {} against {} parameters (mean +- s.e. of "
                                 "{} seed{})",
                                 conformer_params, encoder_params, seeds, seeds > 1 ? "s" : ""),
                     2,
                     1100,
                     480,
                     {plot::LinePlot{"Held-out per-token accuracy during training",
                                     "Adam step",
                                     "held-out accuracy (%)",
                                     {curve("conformer (convolution inside)", conformer_runs),
                                      curve("pre-norm encoder", encoder_runs)}},
                      plot::BarChart{"Training time per step (batch 32 x 32 tokens)",
                                     "model",
                                     "ms per step",
                                     {"conformer", "encoder"},
                                     {conformer_ms.mean, encoder_ms.mean},
                                     {std::isfinite(conformer_ms.standard_error) ? conformer_ms.standard_error : 0,
                                      std::isfinite(encoder_ms.standard_error) ? encoder_ms.standard_error : 0}}}});
    run::say("\n");
    verdict(
        o, exceeds(lead) && local_lead.mean > global_lead.mean,
        fmt::format("held-out accuracy (%): conformer {}, encoder {}; the conformer's lead, paired by seed, {} points "
                    "{} out of the noise, {} points in the local part and {} in the global part; at {} against {} "
                    "parameters and {} against {} ms per step ({} seed{})",
                    pm(estimate(accuracy(conformer_runs)), 2, 100), pm(estimate(accuracy(encoder_runs)), 2, 100),
                    pm(lead, 2, 100), exceeds(lead) ? "stands" : "does NOT stand", pm(local_lead, 2, 100),
                    pm(global_lead, 2, 100), conformer_params, encoder_params, pm(conformer_ms, 1), pm(encoder_ms, 1),
                    seeds, seeds > 1 ? "s" : ""));
}

}  // namespace

Experiment conformer_experiment() {
    return {"conformer",
            "004 §15.5.7: convolution inside the transformer (the conformer) helps where a token's meaning depends on "
            "its neighbours as well as on the whole sequence",
            run_conformer,
            {"--seeds"}};
}

}  // namespace run::experiments
