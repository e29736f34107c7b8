// Early stopping in the one training loop (run/training/best_parameters.h): the model
// ends at the parameters of its best validation score, and a run stopped and
// resumed keeps the best it had found.
#include <filesystem>

#include "check.h"
#include "temp_files.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/optim/sgd.h"
#include "lectern/run/training/best_parameters.h"
#include "lectern/run/training/training_loop.h"

using namespace autograd;

namespace {

// The score each step's evaluation reports: the best is step 2's (step 4 only ties it).
const std::vector<double> kScores = {1, 3, 2, 3, 0, 1};

run::CheckpointFlags checkpoint(const std::string& save, const std::string& save_every = "",
                                const std::string& resume = "") {
    run::CheckpointFlags flags;
    flags.save = save, flags.save_every = save_every, flags.resume = resume;
    return flags;
}

struct Run {
    std::vector<double> weights;  // w after each step (index = step; 0 the start)
    std::int64_t best_step = 0;
    double final_weight = 0;
};

// Six steps of SGD on (w - 5)^2 for a model of one weight, evaluated after every step.
// `copy_at`: after that step's after_step, the checkpoint (saved at the step before) is copied there.
Run train(const run::CheckpointFlags& flags, const std::string& copy_to = "", std::int64_t copy_at = 0) {
    Generator gen(1);
    nn::Linear model(1, 1, false, gen);
    nn::optim::SGD opt(model.parameters(), {.lr = 0.1});
    run::TrainingLoop
        loop(model, opt,
             {.steps = 6, .epoch_steps = 1, .unit = "x", .lr = [](std::int64_t) { return 0.1; }, .epoch_lines = false},
             flags, {});
    run::BestParameters best(loop, model, "model");
    Run r;
    r.weights.push_back(model.weight.item());
    loop.after_step = [&](std::int64_t step) {
        r.weights.resize(static_cast<std::size_t>(step) + 1);
        r.weights[static_cast<std::size_t>(step)] = model.weight.item();
        if (step == copy_at) std::filesystem::copy_file(flags.save, copy_to);
    };
    loop.evaluate = [&](std::int64_t, std::int64_t step) {
        best.offer(step, {kScores[static_cast<std::size_t>(step - 1)]});
    };
    loop.run([&](std::int64_t) {
        Tensor d = model.weight - 5.0;
        return run::StepLoss{sum(d * d), 1, 1};
    });
    r.best_step = best.best().step;
    r.final_weight = model.weight.item();
    return r;
}

}  // namespace

TEST_CASE("the loop ends with the parameters of the best validation score, and saves them", "[best]") {
    testing::TempDir dir("best-parameters");
    const Run r = train(checkpoint(dir.file("run.ckpt")));
    REQUIRE(r.weights.size() == 7);
    CHECK(r.weights[2] != r.weights[6]);
    CHECK(r.best_step == 2);
    CHECK(r.final_weight == r.weights[2]);
    // The run's last save holds the chosen parameters, the chosen step and its score.
    Generator gen(9);
    nn::Linear loaded(1, 1, false, gen);
    nn::RunRecord record;
    nn::load_checkpoint(dir.file("run.ckpt"), loaded, nullptr, &record);
    CHECK(loaded.weight.item() == r.weights[2]);
    const run::BestStep best = run::recorded_best(record, "model", "run.ckpt");
    CHECK(best.step == 2);
    CHECK(best.steps == 6);
    CHECK(best.score == std::vector<double>{3});
    CHECK_THROWS_WITH(run::recorded_best(record, "other", "run.ckpt"),
                      Catch::Contains("run.ckpt holds no chosen step"));
}

TEST_CASE("a run resumed after the best step keeps it, and ends as one never stopped", "[best]") {
    testing::TempDir dir("best-parameters-resume");
    const Run whole = train(checkpoint(dir.file("whole.ckpt")));
    // A run saved at every step; the copy made during step 4 holds step 3's save, best step 2's parameters.
    train(checkpoint(dir.file("part.ckpt"), "1"), dir.file("at3.ckpt"), 4);
    const Run resumed = train(checkpoint(dir.file("resumed.ckpt"), "", dir.file("at3.ckpt")));
    CHECK(resumed.best_step == 2);
    CHECK(resumed.final_weight == whole.final_weight);
    CHECK(testing::read_all(dir.file("resumed.ckpt")) == testing::read_all(dir.file("whole.ckpt")));
}
