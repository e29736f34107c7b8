// experts: 004 §15.5.7 (GShard): replacing the dense feed-forward layers by a mixture of
// experts "scale[s] up transformers to even more parameters", with "sparse conditional
// computation, in which only a subset of the model capacity (chosen by the gating network) is
// used for any given input": more parameters, at the cost per token of the subset.
//
// char_lm's GPT on the fortunes Debian ships, four ways: a mixture of E = 4 experts of width
// d_ff, top k = 2, trained with and without the load-balancing loss (nn/mixture_of_experts.h); a
// dense model whose one MLP is k d_ff wide (as many parameters as a token uses in the mixture);
// and a dense model whose MLP is E d_ff wide (as many parameters as the mixture holds), from 3
// seeds each. The cost per token is the work of one training step on a fixed batch, one
// thread's CPU time with the kernels on that thread alone (scaling.h), so that neither the
// machine's other programs nor the pool's waiting threads are counted as routing. The claim
// holds if the mixture holds more parameters than the dense model of its active size while its
// step costs about as much (within 1.5x, two standard errors included) and less than the
// dense model of its total size (statistics.h). Validation loss and each expert's share of
// the assignments are reported beside it: the note claims nothing of the loss.
#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "lectern/data/char_vocab.h"
#include "lectern/data/fortunes.h"
#include "lectern/data/text_batch.h"
#include "lectern/run/shell/console.h"
#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/scaling.h"
#include "examples/experiments/statistics.h"
#include "examples/experiments/window_means.h"
#include "lectern/models/gpt.h"
#include "lectern/nn/clip_grad.h"
#include "lectern/nn/lr_schedule.h"
#include "lectern/nn/optim/adamw.h"
#include "lectern/nn/optim/param_groups.h"

namespace run::experiments {

namespace {

using namespace autograd;

const char* kFortunesDir = "/usr/share/games/fortunes";
constexpr std::int64_t kExperts = 4, kTopK = 2;

struct Corpus {
    std::unique_ptr<data::CharVocab> vocab;
    data::TokenIds ids{1};
    std::size_t cut = 0;  // validation is the last tenth
    data::TokenSpan train() const { return {&ids, 0, cut}; }
    data::TokenSpan val() const { return {&ids, cut, ids.size()}; }
};

Corpus load_fortunes() {
    const std::string bytes = data::read_fortunes(kFortunesDir);
    Corpus c;
    c.vocab = std::make_unique<data::CharVocab>(data::CharVocab::of_utf8(bytes));
    c.ids = c.vocab->encode_utf8_text(bytes);
    c.cut = c.ids.size() / 10 * 9;
    return c;
}

struct Setting {
    std::string name, short_name;  // the table's, the figure's
    std::int64_t experts, d_ff;
    double aux;  // the load-balancing coefficient
};

struct Trained {
    Setting setting;
    std::int64_t parameters = 0, active = 0;            // active: parameters a token passes through
    std::vector<double> seconds, eval_steps, val_loss;  // validation loss against training wall time and step
    std::vector<std::vector<double>> share;             // share[e][step]: expert e's share of layer 0's assignments
    std::vector<double> steps;
    double max_share = 0;  // the largest expert share of a layer over the last tenth of training, mean over layers
    double cpu_ms_per_step = 0;  // the median work of a step on a fixed batch, one thread
};

struct Budget {
    std::int64_t context, d_model, layers, heads, d_ff, batch, steps, eval_every, val_windows;
};

double validation_loss(const models::GPT& model, const Corpus& c, const Budget& b) {
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    std::vector<std::int64_t> starts;
    for (std::int64_t s = 0;
         s + b.context + 1 <= c.val().size() && static_cast<std::int64_t>(starts.size()) < b.val_windows;
         s += b.context)
        starts.push_back(s);
    data::TextBatch batch = data::text_batch(c.val(), starts, b.context);
    return cross_entropy(model.forward(batch.inputs), batch.targets).item();
}

Trained train(const Corpus& c, const Setting& s, const Budget& b, std::uint64_t seed) {
    models::GPTConfig config;
    config.vocab = c.vocab->size(), config.context = b.context, config.d_model = b.d_model, config.n_layers = b.layers;
    config.heads = b.heads, config.d_ff = s.d_ff, config.experts = s.experts, config.top_k = kTopK, config.seed = seed;
    auto model = models::make_gpt(config);
    Trained t;
    t.setting = s;
    t.parameters = model->parameter_count();
    // A token passes through the gate and k of the E experts: the E - k others are inactive for it.
    const std::int64_t ffn = 2 * b.d_model * s.d_ff + s.d_ff + b.d_model;  // one expert's W_1, W_2 and biases
    t.active = s.experts > 0 ? t.parameters - b.layers * (s.experts - kTopK) * ffn : t.parameters;
    nn::optim::AdamW opt(nn::optim::weight_decay_groups(*model, 0.1), {.lr = 3e-3, .beta1 = 0.9, .beta2 = 0.95});
    nn::WarmupCosineSchedule schedule(3e-3, std::max<std::int64_t>(1, b.steps / 10), b.steps, 3e-4);
    Generator windows(seed);
    const std::int64_t last_start = c.train().size() - b.context - 1;
    t.share.assign(static_cast<std::size_t>(s.experts), {});
    std::vector<std::vector<double>> layer_max(static_cast<std::size_t>(b.layers));
    double trained_seconds = 0;
    for (std::int64_t step = 1; step <= b.steps; ++step) {
        const auto start = std::chrono::steady_clock::now();
        std::vector<std::int64_t> starts(static_cast<std::size_t>(b.batch));
        for (auto& w : starts) w = windows.randint(last_start + 1);
        data::TextBatch batch = data::text_batch(c.train(), starts, b.context);
        opt.zero_grad();
        Tensor loss = cross_entropy(model->forward(batch.inputs), batch.targets);
        if (s.experts > 0 && s.aux > 0) loss = loss + model->aux_loss() * s.aux;
        loss.backward();
        nn::clip_grad_norm_(model->parameters(), 1.0);
        opt.set_lr(schedule.lr(step));
        opt.step();
        // The first step maps the memory every later step reuses (the caching allocator): not counted.
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (step > 1) trained_seconds += seconds;
        if (s.experts > 0) {  // each layer's expert shares of this step's N k assignments
            for (std::size_t l = 0; l < model->blocks->size(); ++l) {
                const Tensor chosen = (*model->blocks)[l].moe->last_routing().experts;  // int64 [N, k]
                std::vector<double> counts(static_cast<std::size_t>(s.experts), 0);
                for (std::int64_t i = 0; i < chosen.numel(); ++i)
                    counts[static_cast<std::size_t>(chosen.data<std::int64_t>()[i])] += 1;
                for (double& n : counts) n /= static_cast<double>(chosen.numel());
                if (l == 0)
                    for (std::size_t e = 0; e < counts.size(); ++e) t.share[e].push_back(counts[e]);
                layer_max[l].push_back(*std::max_element(counts.begin(), counts.end()));
            }
            t.steps.push_back(static_cast<double>(step));
        }
        if (step % b.eval_every == 0 || step == b.steps) {
            t.seconds.push_back(trained_seconds), t.eval_steps.push_back(static_cast<double>(step));
            t.val_loss.push_back(validation_loss(*model, c, b));
        }
    }
    // The work of a step, once trained (the steps timed change the model): five steps on one
    // batch, one thread.
    {
        std::vector<std::int64_t> starts(static_cast<std::size_t>(b.batch));
        for (auto& w : starts) w = windows.randint(last_start + 1);
        const data::TextBatch batch = data::text_batch(c.train(), starts, b.context);
        t.cpu_ms_per_step = 1e3 * median_time(
                                      [&] {
                                          opt.zero_grad();
                                          Tensor loss = cross_entropy(model->forward(batch.inputs), batch.targets);
                                          if (s.experts > 0 && s.aux > 0) loss = loss + model->aux_loss() * s.aux;
                                          loss.backward();
                                          opt.step();
                                      },
                                      5)
                                      .cpu;
    }
    if (s.experts > 0) {
        for (const auto& m : layer_max) {
            const std::size_t tail = std::max<std::size_t>(1, m.size() / 10);
            double sum = 0;
            for (std::size_t i = m.size() - tail; i < m.size(); ++i) sum += m[i];
            t.max_share += sum / static_cast<double>(tail) / static_cast<double>(layer_max.size());
        }
    }
    return t;
}

plot::Figure figure(const std::vector<Trained>& runs) {
    plot::LinePlot val{"Validation loss against training time",
                       "training wall time (s)",
                       "validation loss (nats per char)",
                       {},
                       false,
                       false};
    plot::LinePlot by_step{"Validation loss against training step",
                           "training step",
                           "validation loss (nats per char)",
                           {},
                           false,
                           false};
    for (const Trained& t : runs) {
        val.curves.push_back({t.setting.short_name, t.seconds, t.val_loss, false});
        by_step.curves.push_back({t.setting.short_name, t.eval_steps, t.val_loss, false});
    }
    std::vector<plot::Panel> panels{val, by_step};
    for (const Trained& t : runs) {
        if (t.setting.experts == 0) continue;
        plot::LinePlot share{fmt::format("Tokens per expert in layer 0, {}", t.setting.short_name),
                             "training step",
                             "share of assignments (5-step means)",
                             {},
                             false,
                             false};
        for (std::size_t e = 0; e < t.share.size(); ++e)
            share.curves.push_back(window_means(fmt::format("expert {}", e), t.steps, t.share[e], 5));
        share.curves.push_back({"even share 1/E", {t.steps.front(), t.steps.back()}, {1.0 / kExperts, 1.0 / kExperts}});
        panels.push_back(share);
    }
    return plot::Figure{
        "Mixtures of experts against dense models of their active and total sizes, first seed (004 §15.5.7)",
        2,
        1400,
        900,
        panels,
        0.75};
}

Budget budget(const Options& o) {
    Budget b = o.quick ? Budget{32, 32, 2, 2, 32, 8, 12, 6, 16} : Budget{64, 64, 2, 4, 128, 16, 120, 30, 32};
    b.layers = layers_or(o, b.layers);
    return b;
}

// The largest arm, as examples/char_lm.cpp estimates a GPT: E experts of d_ff hold as many
// weights as the dense E d_ff model, whose hidden [B, T, E d_ff] is the widest; the alphabet
// is at most 256 bytes.
Footprint footprint(const Options& o) {
    const Budget b = budget(o);
    const double T = static_cast<double>(b.context), D = static_cast<double>(b.d_model),
                 F = static_cast<double>(kExperts * b.d_ff), N = static_cast<double>(b.layers),
                 H = static_cast<double>(b.heads), B = static_cast<double>(b.batch), V = 256;
    run::MemoryEstimate e;
    e.parameters = (V + T) * D + N * (4 * D * D + 2 * D * F);
    e.activations = run::transformer_activations(N, B, T, D, F, H, T) + 3 * B * T * V;
    return {e};
}

void run_experts(const Options& o) {
    const Budget b = budget(o);
    const int seeds = seeds_or(o, o.quick ? 1 : 3);
    say("reading the fortunes ({}) ...\n", kFortunesDir);
    const Corpus c = load_fortunes();
    say("{} characters, alphabet of {}; validation: the last {} | N = {}, d_model {}, context {}, {} steps of {} "
        "windows, seeds {}..{}\n",
        c.ids.size(), c.vocab->size(), c.val().size(), b.layers, b.d_model, b.context, b.steps, b.batch, o.seed,
        o.seed + static_cast<std::uint64_t>(seeds) - 1);
    const std::vector<Setting> settings = {{fmt::format("{} experts, top {}, load balancing 0.01", kExperts, kTopK),
                                            "MoE, balanced", kExperts, b.d_ff, 0.01},
                                           {fmt::format("{} experts, top {}, no load balancing", kExperts, kTopK),
                                            "MoE, not balanced", kExperts, b.d_ff, 0.0},
                                           {fmt::format("dense, d_ff {} (k x {}): its active size", kTopK * b.d_ff,
                                                        b.d_ff),
                                            "dense, k d_ff", 0, kTopK * b.d_ff, 0.0},
                                           {fmt::format("dense, d_ff {} (E x {}): its total size", kExperts * b.d_ff,
                                                        b.d_ff),
                                            "dense, E d_ff", 0, kExperts * b.d_ff, 0.0}};
    std::vector<Trained> first;  // the first seed's runs, for the figure
    std::vector<std::vector<double>> loss(settings.size()), cpu(settings.size()), share(settings.size());
    std::vector<std::int64_t> parameters(settings.size()), active(settings.size());
    Table table({"model", "seed", "parameters", "active per token", "final val loss", "CPU ms per step (1 thread)",
                 "largest expert share"});
    for (std::size_t i = 0; i < settings.size(); ++i)
        for (int s = 0; s < seeds; ++s) {
            const Setting& setting = settings[i];
            const std::uint64_t seed = o.seed + static_cast<std::uint64_t>(s);
            say("training: {}, {} steps, seed {} ...\n", setting.name, b.steps, seed);
            Trained t = train(c, setting, b, seed);
            parameters[i] = t.parameters, active[i] = t.active;
            loss[i].push_back(t.val_loss.back()), cpu[i].push_back(t.cpu_ms_per_step), share[i].push_back(t.max_share);
            table.row({setting.name, std::to_string(seed), fmt::format("{}", t.parameters), fmt::format("{}", t.active),
                       fmt::format("{:.3f}", t.val_loss.back()), fmt::format("{:.1f}", t.cpu_ms_per_step),
                       setting.experts > 0 ? fmt::format("{:.2f} (even: {:.2f})", t.max_share, 1.0 / kExperts) : "-"});
            if (s == 0) first.push_back(std::move(t));
        }
    table.print();
    say("\n");
    Table summary(
        {"model", "parameters", "active per token", "final val loss", "CPU ms per step", "largest expert share"});
    for (std::size_t i = 0; i < settings.size(); ++i)
        summary.row({settings[i].name, std::to_string(parameters[i]), std::to_string(active[i]),
                     pm(estimate(loss[i]), 3), pm(estimate(cpu[i]), 1),
                     settings[i].experts > 0 ? pm(estimate(share[i]), 2) : "-"});
    summary.print();
    say("(mean +- standard error over {} seed{}; CPU times depend on the machine)\n", seeds, seeds > 1 ? "s" : "");
    draw(o, "experiments_experts", figure(first));

    // The note's claim: more parameters than the dense model of the same active size, at about
    // its cost per token (the balanced mixture's step over the dense one's, seed by seed, below
    // 1.5 with two standard errors to spare), and below the cost of a dense model as large.
    std::vector<double> to_active, to_total;  // the mixture's step time over each dense model's, per seed
    for (int s = 0; s < seeds; ++s) {
        const auto k = static_cast<std::size_t>(s);
        to_active.push_back(cpu[0][k] / cpu[2][k]), to_total.push_back(cpu[0][k] / cpu[3][k]);
    }
    const Estimate r_active = estimate(to_active), r_total = estimate(to_total);
    const bool more_parameters = parameters[0] > active[0] + active[0] / 2;
    const bool as_cheap = exceeds({1.5 - r_active.mean, r_active.standard_error, r_active.n});
    const bool cheaper_than_total = exceeds({1 - r_total.mean, r_total.standard_error, r_total.n});
    verdict(o, more_parameters && as_cheap && cheaper_than_total,
            fmt::format("the mixture holds {} parameters, {} of them active per token ({:.2f}x); its step costs {} "
                        "times the dense model of its active size and {} times the dense model of its total size "
                        "({} parameters), one thread, over {} seed{}; validation loss {} against {} and {}; load "
                        "balancing {} the busiest expert's share ({} with it, {} without, even {:.2f})",
                        parameters[0], active[0], static_cast<double>(parameters[0]) / static_cast<double>(active[0]),
                        pm(r_active, 2), pm(r_total, 2), parameters[3], seeds, seeds > 1 ? "s" : "",
                        pm(estimate(loss[0]), 3), pm(estimate(loss[2]), 3), pm(estimate(loss[3]), 3),
                        estimate(share[0]).mean < estimate(share[1]).mean ? "lowers" : "does not lower",
                        pm(estimate(share[0]), 2), pm(estimate(share[1]), 2), 1.0 / kExperts));
}

}  // namespace

Experiment experts_experiment() {
    return {"experts",
            "a mixture of experts scales up the parameters while each token uses only a subset chosen by the gate, "
            "so its cost per token stays that of the subset (004 §15.5.7)",
            run_experts,
            {"--layers"},
            footprint};
}

}  // namespace run::experiments
