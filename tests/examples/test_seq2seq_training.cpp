// What the experiments share: training on a sequence task, and the report.
#include "check.h"
#include "examples/experiments/report.h"
#include "examples/experiments/seq2seq_training.h"
#include "examples/experiments/statistics.h"

using namespace run::experiments;

namespace {

Seq2SeqRun small_run(data::SequenceTask task) {
    Seq2SeqRun run;
    run.model.n_layers = 1, run.model.d_model = 32, run.model.d_ff = 64, run.model.heads = 2, run.model.dropout = 0;
    run.task = task;
    run.vocab = 8, run.seq_len = 6, run.batch = 32, run.steps = 250, run.warmup = 50, run.lr_factor = 2.0;
    run.eval_sequences = 100;
    return run;
}

}  // namespace

TEST_CASE("a small Transformer learns to copy: the loss falls and held-out copies come out right", "[experiments]") {
    Seq2SeqResult r = train_seq2seq(small_run(data::SequenceTask::copy));
    REQUIRE(!r.diverged);
    REQUIRE(r.train_loss.size() == 250);
    CHECK(r.steps.front() == 1);
    CHECK(r.train_loss.front() > 1.5);  // about log 7 at the start
    CHECK(r.train_loss.back() < 0.3);
    CHECK(r.held_out_loss < 0.3);
    CHECK(r.held_out_token_accuracy > 0.9);
    CHECK(r.held_out_exact <= r.held_out_token_accuracy);
    CHECK(r.seconds > 0);
}

TEST_CASE("the same run twice gives the same curve; another seed another", "[experiments]") {
    Seq2SeqRun run = small_run(data::SequenceTask::reverse);
    run.steps = 20;
    Seq2SeqResult a = train_seq2seq(run), b = train_seq2seq(run);
    CHECK(a.train_loss == b.train_loss);
    CHECK(a.held_out_token_accuracy == b.held_out_token_accuracy);
    run.seed = 2;
    CHECK(train_seq2seq(run).train_loss != a.train_loss);
}

TEST_CASE("a run whose loss stops being finite is reported diverged, not thrown", "[experiments]") {
    Seq2SeqRun run = small_run(data::SequenceTask::copy);
    run.warmup = 0, run.lr_factor = 1e30, run.steps = 20;
    Seq2SeqResult r = train_seq2seq(run);
    CHECK(r.diverged);
    CHECK(r.train_loss.size() < 20);
    CHECK(std::isnan(r.held_out_loss));
}

TEST_CASE("the RNN with attention trains by the same loop: the loss falls, every step is timed, a seed repeats",
          "[experiments]") {
    RnnSeq2SeqRun run;
    run.model.d_embed = 16, run.model.hidden = 24, run.model.d_attention = 16;
    run.task = data::SequenceTask::copy;
    run.vocab = 8, run.seq_len = 6, run.batch = 32, run.steps = 150, run.lr = 1e-2, run.eval_sequences = 100;
    Seq2SeqResult r = train_rnn_seq2seq(run);
    REQUIRE(!r.diverged);
    REQUIRE(r.rnn);
    CHECK(!r.model);
    CHECK(r.rnn->config.src_vocab == 8);
    CHECK(r.train_loss.size() == 150);
    CHECK(r.step_seconds.size() == 150);
    CHECK(r.train_loss.front() > 1.5);  // about log 7 at the start
    CHECK(r.train_loss.back() < 0.5);
    CHECK(r.held_out_token_accuracy > 0.8);
    run.steps = 10;
    CHECK(train_rnn_seq2seq(run).train_loss == std::vector<double>(r.train_loss.begin(), r.train_loss.begin() + 10));
}

TEST_CASE("a table row must have a cell per column", "[experiments]") {
    Table t({"a", "b"});
    t.row({"1", "2"});
    CHECK_THROWS_AS(t.row({"1"}), autograd::ValueError);
}

TEST_CASE("the mean and standard error over seeds, worked by hand", "[experiments]") {
    // 1, 2, 3, 6: mean 3, s^2 = (4 + 1 + 0 + 9) / 3 = 14/3, standard error sqrt(14/3 / 4) = 1.0801
    const Estimate e = estimate({1, 2, 3, 6});
    CHECK(e.n == 4);
    CHECK(e.mean == Approx(3.0));
    CHECK(e.standard_error == Approx(std::sqrt(14.0 / 12.0)));
    CHECK(std::isnan(estimate({2.5}).standard_error));  // one seed measures no noise
    CHECK(pm(estimate({2.5}), 2) == "2.50 (one seed)");
    CHECK(pm(e, 2) == "3.00 +- 1.08");
}

TEST_CASE("a paired difference is taken seed by seed, and stands out only beyond two standard errors",
          "[experiments]") {
    // differences 1.1, 0.9, 1.0: mean 1, s = 0.1, standard error 0.1 / sqrt 3 = 0.0577
    const Estimate d = paired_difference({3.1, 2.9, 5.0}, {2.0, 2.0, 4.0});
    CHECK(d.mean == Approx(1.0));
    CHECK(d.standard_error == Approx(0.1 / std::sqrt(3.0)));
    CHECK(exceeds(d));
    CHECK(exceeds(d, 0.88));  // 1 - 2 x 0.0577 = 0.885 > 0.88
    CHECK(!exceeds(d, 0.89));
    CHECK(within(d, 1.12));  // 1 + 0.115 <= 1.12
    CHECK(!within(d, 1.11));
    CHECK(!exceeds(paired_difference({5.0}, {1.0})));  // one seed decides nothing
    CHECK(!within(paired_difference({1.0}, {1.0}), 10));
}

TEST_CASE("a quick run prints no verdict, a full run says held or NOT held", "[experiments]") {
    Options quick, full;
    quick.quick = true;
    CHECK(verdict_line(quick, true, "x") == "quick run: no verdict (smoke test): x");
    CHECK(verdict_line(quick, false, "x") == "quick run: no verdict (smoke test): x");
    CHECK(verdict_line(full, true, "x") == "claim held: x");
    CHECK(verdict_line(full, false, "x") == "claim NOT held: x");
}
