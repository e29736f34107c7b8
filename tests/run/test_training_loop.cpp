// run::TrainingLoop: a run resumed from its checkpoint carries on as the run
// that saved it would have.
#include <string>
#include <vector>

#include "check.h"
#include "temp_files.h"
#include "lectern/autograd/autograd.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/optim/sgd.h"
#include "lectern/run/training/training_loop.h"

using namespace autograd;

namespace {

// Two steps of a line fitted to ones, with a curve named in each step
// ("zeta") and one named by the evaluation ("alpha"), against the
// alphabet; returns the curves' names in the loop's order, and writes the CSV.
std::vector<std::string> train_two_steps(const run::CheckpointFlags& checkpoint, const std::string& csv) {
    Generator gen(1);
    nn::Linear model(2, 1, true, gen);
    nn::optim::SGD opt(model.parameters(), {.lr = 0.1});
    run::TrainingLoop loop(model, opt,
                           {.steps = 2, .epoch_steps = 2, .unit = "row", .lr = [](std::int64_t) { return 0.1; }},
                           checkpoint, nn::RunRecord{});
    loop.after_step = [&](std::int64_t step) { loop.curve("zeta").emplace_back(static_cast<double>(step), 1.0); };
    loop.evaluate = [&](std::int64_t, std::int64_t step) {
        loop.curve("alpha").emplace_back(static_cast<double>(step), 2.0);
    };
    loop.run([&](std::int64_t) {
        Tensor error = model(ones({4, 2})) - 1.0;
        return run::StepLoss{(error * error).mean(), 4, 4};
    });
    loop.finish({}, csv, "");
    std::vector<std::string> names;
    for (const auto& [name, c] : loop.curves()) names.push_back(name);
    return names;
}

}  // namespace

TEST_CASE("a resumed run keeps its curves in the order they were first named, and so its CSV's columns",
          "[train][io]") {
    testing::TempDir dir("training-loop");
    const std::string saved = dir.file("run.ckpt");
    run::CheckpointFlags save, resume;
    save.save = resume.resume = saved;
    const auto fresh = train_two_steps(save, dir.file("fresh.csv"));
    CHECK(fresh == std::vector<std::string>{"loss", "lr", "zeta", "alpha"});
    const auto resumed = train_two_steps(resume, dir.file("resumed.csv"));  // at its last step: no step taken
    CHECK(resumed == fresh);
    CHECK(testing::read_all(dir.file("resumed.csv")) == testing::read_all(dir.file("fresh.csv")));
}
