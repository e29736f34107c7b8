// hard-attention (004 §15.4.7): soft attention reads a weighted average of every location; hard
// attention reads ONE location z drawn from the same weights, which is not differentiable and, 004
// says, needs reinforcement learning to fit. The claims, on a task where one glimpse suffices:
// (1) hard attention trained by the score-function estimator with a baseline (nn/reinforce.h)
// reaches soft attention's accuracy, (2) it needs more steps to get there, and (3) the baseline
// shrinks the variance of the estimate for the scores.
//
// The task: 32 digits, one of them marked; the answer is the marked digit (10 classes, chance 10%).
// Tokens 0..9 are the plain digits, 10..19 the marked ones. One glimpse of the marked location
// holds the whole answer; a glimpse anywhere else holds nothing.
// The model, the same in every arm: each token's embedding e_t (width 16), a score per location
// s_t = w^T e_t + w_0 (one learned query), a context c, and an MLP on c for the 10 classes:
//   soft:  c = sum_t p_t e_t,  p = softmax(s);        trained by backprop of the cross-entropy;
//   hard:  c = e_z,            z ~ Categorical(p);     the cross-entropy trains the MLP and the
//          embeddings through c, and the scores get the score-function estimate with the reward
//          r(z) = log q(y | e_z), the log-probability the MLP gives the right digit after glimpse z:
//          -d/ds E_z[-log q(y | e_z)] has the estimate (r(z) - b)(onehot(z) - p) (Xu et al. 2015's
//          hard attention, which 004 cites, trains on this reward);
//   b is a moving average of the batches' mean reward (momentum 0.9), or 0 in the third arm.
// At test, hard attention glimpses the most probable location (argmax s).
//
// The variance: along the run with the baseline, every checkpoint, on 256 fixed probe rows, the
// variance over z ~ p of the estimate g(z) = (r(z) - b)(onehot(z) - p) of one row, summed over its
// 32 scores and averaged over the rows, with b the baseline at that step and with b = 0. Computed
// exactly, by enumerating the 32 locations (nn::score_function_variance).
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "examples/experiments/registry.h"
#include "examples/experiments/report.h"
#include "examples/experiments/statistics.h"
#include "lectern/nn/embedding.h"
#include "lectern/nn/hard_attention.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/optim/adam.h"
#include "lectern/nn/reinforce.h"
#include "lectern/run/shell/console.h"

namespace run::experiments {

namespace {

using namespace autograd;

constexpr std::int64_t kDigits = 10, kLength = 32, kWidth = 16, kHidden = 32;
constexpr double kConverged = 0.95;  // "converged": held-out accuracy at or above this

struct MarkedDigits {
    Tensor tokens;  // int64 [B, 32]: digit d plain is d, marked is 10 + d; one marked per row
    Tensor answer;  // int64 [B]: the marked digit
};

MarkedDigits marked_digits(std::int64_t batch, Generator& gen) {
    MarkedDigits m{Tensor::empty({batch, kLength}, Dtype::int64), Tensor::empty({batch}, Dtype::int64)};
    std::int64_t* tokens = m.tokens.data<std::int64_t>();
    for (std::int64_t b = 0; b < batch; ++b) {
        for (std::int64_t t = 0; t < kLength; ++t) tokens[b * kLength + t] = gen.randint(kDigits);
        const std::int64_t marked = gen.randint(kLength);
        m.answer.data<std::int64_t>()[b] = tokens[b * kLength + marked];
        tokens[b * kLength + marked] += kDigits;
    }
    return m;
}

enum class Arm { soft, hard_baseline, hard_no_baseline };

// e_t = embed(x_t); s_t = w^T e_t + w_0; logits = W_2 relu(W_1 c + b_1) + b_2.
class GlimpseClassifier : public nn::Module {
public:
    explicit GlimpseClassifier(std::uint64_t seed) {
        Generator gen(seed);
        embed = register_module("embed", std::make_shared<nn::Embedding>(2 * kDigits, kWidth, false, gen));
        score = register_module("score", std::make_shared<nn::Linear>(kWidth, 1, true, gen));
        hidden = register_module("hidden", std::make_shared<nn::Linear>(kWidth, kHidden, true, gen));
        out = register_module("out", std::make_shared<nn::Linear>(kHidden, kDigits, true, gen));
    }
    Tensor scores(const Tensor& e) const { return reshape((*score)(e), {e.size(0), e.size(1)}); }  // [B, T]
    Tensor classify(const Tensor& c) const { return (*out)(relu((*hidden)(c))); }                  // [..., 10]

    std::shared_ptr<nn::Embedding> embed;
    std::shared_ptr<nn::Linear> score, hidden, out;
};

// log q(y_b | c_b) for each row: logits [B, 10] -> [B], no graph.
Tensor log_likelihood(const Tensor& logits, const Tensor& answer) {
    NoGradGuard no_grad;
    return reshape(gather(log_softmax(logits, -1), 1, reshape(answer, {answer.size(0), 1})), {answer.size(0)});
}

double accuracy(const GlimpseClassifier& model, Arm arm, const MarkedDigits& held_out) {
    NoGradGuard no_grad;
    const Tensor e = (*model.embed)(held_out.tokens);  // [B, T, D]
    const Tensor s = model.scores(e);
    const std::int64_t B = e.size(0);
    const Tensor c = arm == Arm::soft ? reshape(matmul(unsqueeze(softmax(s, -1), 1), e), {B, kWidth})
                                      : nn::glimpse(s, e, argmax(s, -1)).value;  // the most probable location
    const Tensor predicted = argmax(model.classify(c), -1);
    std::int64_t right = 0;
    for (std::int64_t b = 0; b < B; ++b)
        right += predicted.data<std::int64_t>()[b] == held_out.answer.data<std::int64_t>()[b];
    return static_cast<double>(right) / static_cast<double>(B);
}

// The exact variance over z ~ p of g(z) = (r(z) - b)(onehot(z) - p) (nn::score_function_variance),
// summed over a row's T components and averaged over the rows, for the model as it stands.
double estimate_variance(const GlimpseClassifier& model, const MarkedDigits& probe, double baseline) {
    NoGradGuard no_grad;
    const Tensor e = (*model.embed)(probe.tokens);
    const std::int64_t B = e.size(0), T = e.size(1);
    const std::vector<double> p = softmax(model.scores(e), -1).to_vector();  // [B, T]
    // log q(. | e_z) for every location z at once; r(z) = log q(y | e_z)              [B, T, 10]
    const std::vector<double> log_q = log_softmax(model.classify(e), -1).to_vector();
    const std::int64_t* answer = probe.answer.data<std::int64_t>();
    double total = 0;
    for (std::int64_t b = 0; b < B; ++b) {
        std::vector<double> p_row(p.begin() + b * T, p.begin() + (b + 1) * T), r_row;
        for (std::int64_t z = 0; z < T; ++z)
            r_row.push_back(log_q[static_cast<std::size_t>((b * T + z) * kDigits + answer[b])]);
        total += nn::score_function_variance(p_row, r_row, baseline);
    }
    return total / static_cast<double>(B);
}

struct Budget {
    std::int64_t steps, every, held_out;  // held-out accuracy and the variance measured every `every` steps
    std::int64_t batch = 64, probe = 256;
    double lr = 1e-3;
};

struct ArmRun {
    std::vector<double> curve;                            // held-out accuracy after every `every` steps
    std::vector<double> variance_with, variance_without;  // the estimate's variance (hard, with a baseline)
    std::int64_t steps_to_converge = -1;                  // the first checkpoint at kConverged; -1: never
    double final_accuracy = 0;
};

ArmRun train(Arm arm, const Budget& b, const MarkedDigits& held_out, const MarkedDigits& probe, std::uint64_t seed) {
    GlimpseClassifier model(seed);  // the same initial weights in every arm of a seed
    nn::optim::Adam opt(model.parameters(), {.lr = b.lr});
    nn::MovingAverageBaseline baseline(0.9);
    Generator data(seed * 7919), draws(seed * 104729);  // the same batches in every arm of a seed
    ArmRun run;
    for (std::int64_t step = 1; step <= b.steps; ++step) {
        const MarkedDigits batch = marked_digits(b.batch, data);
        const Tensor e = (*model.embed)(batch.tokens);  // [B, T, D]
        const Tensor s = model.scores(e);               // [B, T]
        Tensor loss;
        if (arm == Arm::soft) {
            // c = sum_t p_t e_t, all of it differentiable
            const Tensor c = reshape(matmul(unsqueeze(softmax(s, -1), 1), e), {b.batch, kWidth});
            loss = cross_entropy(model.classify(c), batch.answer);
        } else {
            // c = e_z, z ~ softmax(s): backprop through c, the score-function estimate for s
            const nn::Glimpse g = nn::hard_attention(s, e, draws);
            const Tensor logits = model.classify(g.value);
            const Tensor reward = log_likelihood(logits, batch.answer);  // r(z) = log q(y | e_z)
            const double b_now = arm == Arm::hard_baseline ? baseline.value() : 0.0;
            loss = cross_entropy(logits, batch.answer) + nn::reinforce_loss(g.log_prob, reward, b_now);
            baseline.update(reward);  // after its use: b never depends on the draws it is subtracted from
        }
        opt.zero_grad();
        loss.backward();
        opt.step();
        if (step % b.every == 0) {
            run.curve.push_back(accuracy(model, arm, held_out));
            if (run.steps_to_converge < 0 && run.curve.back() >= kConverged) run.steps_to_converge = step;
            if (arm == Arm::hard_baseline) {
                run.variance_with.push_back(estimate_variance(model, probe, baseline.value()));
                run.variance_without.push_back(estimate_variance(model, probe, 0.0));
            }
        }
    }
    run.final_accuracy = accuracy(model, arm, held_out);
    return run;
}

const char* arm_name(Arm arm) {
    return arm == Arm::soft ? "soft attention" : arm == Arm::hard_baseline ? "hard, baseline" : "hard, no baseline";
}

void run(const Options& o) {
    const Budget b = o.quick ? Budget{60, 20, 500} : Budget{2000, 20, 2000};
    const int seeds = seeds_or(o, o.quick ? 1 : 5);
    say("{} digits, one marked; the answer is the marked digit (10 classes, chance 10%) | embeddings of 16, one "
        "score per location, an MLP of 32 on the context | {} steps of {} rows, Adam lr {} | {} held-out rows, the "
        "estimate's variance on {} probe rows | seeds {}..{}\n",
        kLength, b.steps, b.batch, b.lr, b.held_out, b.probe, o.seed, o.seed + static_cast<std::uint64_t>(seeds) - 1);
    Generator held_out_gen(1000003), probe_gen(2000003);
    const MarkedDigits held_out = marked_digits(b.held_out, held_out_gen);
    const MarkedDigits probe = marked_digits(b.probe, probe_gen);

    const std::vector<Arm> arms = {Arm::soft, Arm::hard_baseline, Arm::hard_no_baseline};
    const auto checkpoints = static_cast<std::size_t>(b.steps / b.every);
    std::vector<std::vector<double>> final_accuracy(arms.size()), steps(arms.size());
    std::vector<std::vector<std::vector<double>>> curves(arms.size(), std::vector<std::vector<double>>(checkpoints));
    std::vector<std::vector<double>> with(checkpoints), without(checkpoints);
    std::vector<double> log_ratio;  // per seed: log10 of (mean variance without) / (mean variance with)
    Table table({"arm", "seed", "held-out accuracy", "steps to 95%", "variance without / with baseline"});
    for (int s = 0; s < seeds; ++s) {
        const std::uint64_t seed = o.seed + static_cast<std::uint64_t>(s);
        for (std::size_t a = 0; a < arms.size(); ++a) {
            const ArmRun r = train(arms[a], b, held_out, probe, seed);
            // A run that never converged counts as the whole budget (a bound, marked ">" in the table).
            const std::int64_t converged = r.steps_to_converge < 0 ? b.steps : r.steps_to_converge;
            final_accuracy[a].push_back(r.final_accuracy);
            steps[a].push_back(static_cast<double>(converged));
            for (std::size_t t = 0; t < r.curve.size(); ++t) curves[a][t].push_back(r.curve[t]);
            std::string ratio = "-";
            if (arms[a] == Arm::hard_baseline) {
                double w = 0, wo = 0;
                for (std::size_t t = 0; t < r.variance_with.size(); ++t) {
                    with[t].push_back(r.variance_with[t]), without[t].push_back(r.variance_without[t]);
                    w += r.variance_with[t], wo += r.variance_without[t];
                }
                log_ratio.push_back(std::log10(wo / w));
                ratio = fmt::format("{:.1f}", wo / w);
            }
            say("  {:<18} seed {}: {:.1f}%\n", arm_name(arms[a]), seed, 100 * r.final_accuracy);
            table.row({arm_name(arms[a]), std::to_string(seed), fmt::format("{:.1f}%", 100 * r.final_accuracy),
                       fmt::format("{}{}", r.steps_to_converge < 0 ? ">" : "", converged), ratio});
        }
    }
    say("\n");
    table.print();

    Table summary({"arm", "held-out accuracy (%)", "steps to 95% (a run that never got there counts as the budget)"});
    for (std::size_t a = 0; a < arms.size(); ++a)
        summary.row({arm_name(arms[a]), pm(estimate(final_accuracy[a]), 1, 100), pm(estimate(steps[a]), 0)});
    say("\n");
    summary.print();

    Table variance({"after step", "variance, no baseline", "variance, baseline", "ratio"});
    plot::LinePlot learning{fmt::format("Held-out accuracy (mean +- s.e. of {} seed{})", seeds, seeds > 1 ? "s" : ""),
                            "training step",
                            "held-out accuracy (%)",
                            {}};
    plot::LinePlot spread{"The estimate (r - b)(onehot(z) - p) for a row's scores",
                          "training step (of the run "
                          "with the baseline)",
                          "its variance over z (log scale)",
                          {},
                          false,
                          true};
    plot::Curve c_with{"b = moving average of the reward", {}, {}}, c_without{"b = 0 (no baseline)", {}, {}};
    for (std::size_t t = 0; t < checkpoints; ++t) {
        const double step = static_cast<double>((static_cast<std::int64_t>(t) + 1) * b.every);
        const double w = estimate(with[t]).mean, wo = estimate(without[t]).mean;
        c_with.x.push_back(step), c_with.y.push_back(w);
        c_without.x.push_back(step), c_without.y.push_back(wo);
        const std::size_t k = t + 1;  // the rows of the table: checkpoints 1, 2, 5, 10, 20, 50, 100 and the last
        if (k == 1 || k == 2 || k == 5 || k == 10 || k == 20 || k == 50 || k == 100 || k == checkpoints)
            variance.row({fmt::format("{}", step), fmt::format("{:.4f}", wo), fmt::format("{:.4f}", w),
                          fmt::format("{:.1f}", wo / w)});
    }
    spread.curves = {c_without, c_with};
    for (std::size_t a = 0; a < arms.size(); ++a) {
        plot::Curve c{arm_name(arms[a]), {}, {}};
        for (std::size_t t = 0; t < checkpoints; ++t) {
            const Estimate e = estimate(curves[a][t]);
            c.x.push_back(static_cast<double>((static_cast<std::int64_t>(t) + 1) * b.every));
            c.y.push_back(100 * e.mean);
            c.error.push_back(std::isfinite(e.standard_error) ? 100 * e.standard_error : 0);
        }
        learning.curves.push_back(std::move(c));
    }
    say("\nthe estimate's variance for one row's scores (summed over its {}), mean over the seeds:\n", kLength);
    variance.print();
    say("(mean +- standard error over {} seed{})\n", seeds, seeds > 1 ? "s" : "");
    draw(o, "experiments_hard_attention",
         {"hard-attention: one sampled glimpse trained by the score-function estimator, beside soft attention "
          "(004 §15.4.7)",
          2,
          1300,
          500,
          {learning, spread}});

    // (1) hard with a baseline within 2 points of soft; (2) more steps than soft; (3) a smaller variance.
    const Estimate accuracy_gap = paired_difference(final_accuracy[1], final_accuracy[0]);
    const Estimate step_gap = paired_difference(steps[1], steps[0]);
    const Estimate ratio = estimate(log_ratio);
    const bool held = within(accuracy_gap, 0.02) && exceeds(step_gap) && exceeds(ratio);
    verdict(o, held,
            fmt::format("hard (baseline) minus soft accuracy {} points (within 2); steps to 95% {} more (above 0); "
                        "log10 of the variance without / with the baseline {} (above 0)",
                        pm(accuracy_gap, 1, 100), pm(step_gap, 0), pm(ratio, 2)));
}

}  // namespace

Experiment hard_attention_experiment() {
    return {"hard-attention",
            "hard attention: one glimpse drawn from the attention weights, trained by the score-function estimator "
            "with a baseline, reaches soft attention's accuracy where one glimpse suffices, in more steps, and the "
            "baseline shrinks the estimate's variance (004 §15.4.7)",
            run,
            {"--seeds"}};
}

}  // namespace run::experiments
