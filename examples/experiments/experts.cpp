// experts: 004 §15.5.7 (GShard): replacing the dense feed-forward layers by a
// mixture of experts "scale[s] up transformers to even more parameters", with
// "sparse conditional computation, in which only a subset of the model
// capacity (chosen by the gating network) is used for any given input".
//
// char_lm's GPT on the fortunes Debian ships, three ways at the same number of
// active parameters per token: a mixture of E = 4 experts of width d_ff, top
// k = 2, trained with and without the load-balancing loss (nn/mixture_of_experts.h),
// and a dense model whose one MLP is k d_ff wide. Validation loss against wall
// time, and each expert's share of the token assignments over training: without
// the balancing term the gate may send most tokens to few experts, which then
// hold the capacity the others leave unused.
#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "lectern/data/char_corpus.h"
#include "lectern/run/console.h"
#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
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
    std::int64_t parameters = 0, active = 0;  // active: parameters a token passes through
    std::vector<double> seconds, eval_steps, val_loss;  // validation loss against training wall time and step
    std::vector<std::vector<double>> share;     // share[e][step]: expert e's share of layer 0's assignments
    std::vector<double> steps;
    double max_share = 0;  // the largest expert share of a layer over the last tenth of training, mean over layers
    double ms_per_step = 0;  // the median step
};

struct Budget {
    std::int64_t context, d_model, layers, heads, d_ff, batch, steps, eval_every, val_windows;
};

double validation_loss(const models::GPT& model, const Corpus& c, const Budget& b) {
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    std::vector<std::int64_t> starts;
    for (std::int64_t s = 0; s + b.context + 1 <= c.val().size() && static_cast<std::int64_t>(starts.size()) < b.val_windows;
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
    std::vector<double> step_seconds;
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
        if (step > 1) trained_seconds += seconds, step_seconds.push_back(seconds);
        if (s.experts > 0) {  // each layer's expert shares of this step's N k assignments
            for (std::size_t l = 0; l < model->blocks->size(); ++l) {
                const Tensor chosen = (*model->blocks)[l].moe->last_routing().experts;  // int64 [N, k]
                std::vector<double> counts(static_cast<std::size_t>(s.experts), 0);
                for (std::int64_t i = 0; i < chosen.numel(); ++i) counts[static_cast<std::size_t>(chosen.data<std::int64_t>()[i])] += 1;
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
    std::nth_element(step_seconds.begin(), step_seconds.begin() + static_cast<std::ptrdiff_t>(step_seconds.size() / 2),
                     step_seconds.end());
    t.ms_per_step = 1000 * step_seconds[step_seconds.size() / 2];  // the median: others share the machine
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
    plot::LinePlot val{"Validation loss against training time", "training wall time (s)",
                       "validation loss (nats per char)", {}, false, false};
    plot::LinePlot by_step{"Validation loss against training step", "training step", "validation loss (nats per char)",
                           {}, false, false};
    for (const Trained& t : runs) {
        val.curves.push_back({t.setting.short_name, t.seconds, t.val_loss, false});
        by_step.curves.push_back({t.setting.short_name, t.eval_steps, t.val_loss, false});
    }
    std::vector<plot::Panel> panels{val, by_step};
    for (const Trained& t : runs) {
        if (t.setting.experts == 0) continue;
        plot::LinePlot share{fmt::format("Tokens per expert in layer 0, {}", t.setting.short_name), "training step",
                             "share of assignments (5-step means)", {}, false, false};
        for (std::size_t e = 0; e < t.share.size(); ++e)
            share.curves.push_back(window_means(fmt::format("expert {}", e), t.steps, t.share[e], 5));
        share.curves.push_back({"even share 1/E", {t.steps.front(), t.steps.back()}, {1.0 / kExperts, 1.0 / kExperts}});
        panels.push_back(share);
    }
    return plot::Figure{"Mixture of experts against a dense model of as many active parameters (004 §15.5.7)", 2, 1400,
                        900, panels, 0.75};
}

void run_experts(const Options& o) {
    const Budget b = o.quick ? Budget{32, 32, 2, 2, 32, 8, 12, 6, 16} : Budget{64, 64, 2, 4, 128, 16, 250, 25, 32};
    say("reading the fortunes ({}) ...\n", kFortunesDir);
    const Corpus c = load_fortunes();
    say("{} characters, alphabet of {}; validation: the last {}\n", c.ids.size(), c.vocab->size(), c.val().size());
    const std::vector<Setting> settings = {
        {fmt::format("{} experts, top {}, load balancing 0.01", kExperts, kTopK), "MoE, balanced", kExperts, b.d_ff, 0.01},
        {fmt::format("{} experts, top {}, no load balancing", kExperts, kTopK), "MoE, not balanced", kExperts, b.d_ff, 0.0},
        {fmt::format("dense, d_ff {} (k x {})", kTopK * b.d_ff, b.d_ff), "dense", 0, kTopK * b.d_ff, 0.0}};
    std::vector<Trained> runs;
    Table table({"model", "parameters", "active per token", "final val loss", "ms per step", "largest expert share"});
    for (const Setting& s : settings) {
        say("training: {}, {} steps ...\n", s.name, b.steps);
        runs.push_back(train(c, s, b, o.seed));
        const Trained& t = runs.back();
        table.row({s.name, fmt::format("{}", t.parameters), fmt::format("{}", t.active),
                   fmt::format("{:.3f}", t.val_loss.back()), fmt::format("{:.1f}", t.ms_per_step),
                   s.experts > 0 ? fmt::format("{:.2f} (even: {:.2f})", t.max_share, 1.0 / kExperts) : "-"});
    }
    table.print();
    draw(o, "experiments_experts", figure(runs));

    const Trained &balanced = runs[0], &unbalanced = runs[1], &dense = runs[2];
    // The note's claim: more parameters at the same active count buy a better model. Held if the
    // balanced mixture ends below the dense model, with its extra parameters and its time per step said.
    const bool better = balanced.val_loss.back() < dense.val_loss.back();
    verdict(better,
            fmt::format("the mixture of {} parameters ({} active) ends at validation loss {:.3f}, the dense model of {} "
                        "at {:.3f}, at {:.1f}x its time per step; load balancing {} the busiest expert's share ({:.2f} "
                        "with it, {:.2f} without, even {:.2f})",
                        balanced.parameters, balanced.active, balanced.val_loss.back(), dense.parameters,
                        dense.val_loss.back(), balanced.ms_per_step / dense.ms_per_step,
                        balanced.max_share < unbalanced.max_share ? "lowers" : "does not lower", balanced.max_share,
                        unbalanced.max_share, 1.0 / kExperts));
}

}  // namespace

Experiment experts_experiment() {
    return {"experts",
            "a mixture of experts scales the parameters while each token uses only a subset chosen by the gate (004 "
            "§15.5.7)",
            run_experts};
}

}  // namespace run::experiments
