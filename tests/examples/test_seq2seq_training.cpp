// What the experiments share: training on a sequence task, and the report.
#include "check.h"
#include "examples/experiments/report.h"
#include "examples/experiments/seq2seq_training.h"

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

TEST_CASE("a table row must have a cell per column", "[experiments]") {
    Table t({"a", "b"});
    t.row({"1", "2"});
    CHECK_THROWS_AS(t.row({"1"}), autograd::ValueError);
}
