// A classifier's score counted batch by batch (classification_tally.h), and a
// run's phases (training_phases.h), by hand.
#include <cmath>

#include <catch2/catch.hpp>

#include "lectern/autograd/autograd.h"
#include "lectern/run/training/classification_tally.h"
#include "lectern/run/training/training_phases.h"

using namespace autograd;

TEST_CASE("a tally counts accuracy, mean cross-entropy and the confusion over batches", "[run][tally]") {
    run::ClassificationTally tally(2);
    // Batch 1: logits (0, ln 3) for label 1 (right, p = 3/4) and (0, 0) for label 0 (argmax 0: right, p = 1/2).
    tally.add(tensor({0.0, std::log(3.0), 0.0, 0.0}, {2, 2}), tensor({1.0, 0.0}, Dtype::int64));
    // Batch 2: logits (ln 3, 0) for label 1 (wrong, p = 1/4).
    tally.add(tensor({std::log(3.0), 0.0}, {1, 2}), tensor({1.0}, Dtype::int64));
    CHECK(tally.seen() == 3);
    CHECK(tally.accuracy() == Approx(2.0 / 3.0));
    CHECK(tally.loss() == Approx((-std::log(0.75) - std::log(0.5) - std::log(0.25)) / 3).epsilon(1e-6));
    CHECK(tally.confusion() == run::Confusion{{1, 0}, {1, 1}});
}

TEST_CASE("a report's table: a line a class, its counts, each model's accuracy on it, the first's confusion",
          "[run][tally]") {
    const run::Confusion first{{3, 1}, {0, 4}}, second{{2, 2}, {1, 3}};
    const std::string table =
        run::class_table("class", {"cat", "dog"}, {{"train", {40, 7}}}, {{"first model", &first}, {"second", &second}});
    CHECK(table ==
          "class           train first model   second   confusion of the first model (rows: true class, columns: "
          "predicted)\n"
          "cat                40       75.0%    50.0%      3    1\n"
          "dog                 7      100.0%    75.0%      0    4\n");
    // One model and no counts: the ViT's table.
    CHECK(run::class_table("class", {"cat"}, {}, {{"accuracy", &first}}).substr(0, 31) ==
          "class        accuracy   confusi");
}

TEST_CASE("tally_rows reads every row once, 64 at a time", "[run][tally]") {
    std::vector<std::int64_t> labels(130);
    for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = static_cast<std::int64_t>(i % 3);
    std::vector<std::size_t> batch_sizes;
    const run::ClassificationTally t = run::tally_rows(labels.size(), 3, labels, [&](const auto& rows) {
        batch_sizes.push_back(rows.size());
        Tensor logits = zeros({static_cast<std::int64_t>(rows.size()), 3});
        for (std::size_t k = 0; k < rows.size(); ++k) logits.data<float>()[k * 3 + rows[k] % 3] = 5;  // always right
        return logits;
    });
    CHECK(batch_sizes == std::vector<std::size_t>{64, 64, 2});
    CHECK(t.seen() == 130);
    CHECK(t.accuracy() == 1.0);
    CHECK(t.confusion()[2][2] == 43);
}

TEST_CASE("a resumed run finishes, resumes and restarts its phases as its checkpoint says", "[run][phases]") {
    const run::TrainingPhases phases({"first", "second", "third"}, "prog");
    using S = run::PhaseStart;
    CHECK(phases.start_of("first", "") == S::afresh);
    CHECK(phases.start_of("first", "second") == S::finished);
    CHECK(phases.start_of("second", "second") == S::resume);
    CHECK(phases.start_of("third", "second") == S::afresh);
    nn::RunRecord saved;
    saved.text["phase"] = "third";
    CHECK(phases.saved_in(saved, "m.ckpt") == "third");
    saved.text["phase"] = "fourth";
    CHECK_THROWS_WITH(phases.saved_in(saved, "m.ckpt"), "m.ckpt names no training of prog's ('phase')");
}
