#pragma once
// Early stopping that trains to the end: at each evaluation the model is
// scored on validation data, a copy of its parameters is kept at the best
// score, and after the last step the best is put back, so the step a model is
// taken at is chosen by the validation data and never by the test data.
// The evaluate hook of a run::TrainingLoop:
//
//   run::BestParameters best(loop, model, "transformer");
//   loop.evaluate = [&](std::int64_t, std::int64_t step) {    // rank 0
//       Score v = validate(model);
//       best.offer(step, {v.accuracy, -v.loss});             // the highest accuracy, then the lowest loss
//   };
//   loop.run(...);                                            // the model holds the parameters of best.best().step
//
// The copy, its step and its score ride in the loop's checkpoint, under
// "best.<name>.", so a resumed run keeps the best so far; the best is put back
// at the last step's evaluation, before the loop's last save, so the run's
// final checkpoint holds the chosen parameters. The loop evaluates on rank 0
// alone: rank 0's model is the chosen one, the one it scores and writes (a
// later loop training the same model starts every rank from rank 0's weights).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lectern/autograd/autograd.h"
#include "lectern/nn/checkpoint.h"
#include "lectern/nn/module.h"
#include "lectern/run/training/training_loop.h"

namespace run {

// The step chosen, the training's last step, and the chosen step's score:
// what the record keeps of a finished training ("best.<name>.step" int64 [2],
// "best.<name>.score" float64).
struct BestStep {
    std::int64_t step = 0;  // 0: nothing scored yet
    std::int64_t steps = 0;
    std::vector<double> score;
};
void record_best(nn::RunRecord& record, const std::string& name, const BestStep& best);
// std::runtime_error naming `path` when the record holds no such result.
BestStep recorded_best(const nn::RunRecord& record, const std::string& name, const std::string& path);

class BestParameters {
public:
    // Copies `model`'s parameters now, and has `loop` keep this hook.
    BestParameters(TrainingLoop& loop, nn::Module& model, std::string name);

    // The score of the parameters the model holds after `step`: kept when it
    // beats the best so far, compared value by value (a higher first value
    // wins, a tie goes to the second, ...). At the loop's last step, the best
    // parameters are then put back.
    void offer(std::int64_t step, const std::vector<double>& score);
    const BestStep& best() const { return best_; }

private:
    void save(nn::RunRecord& record) const;
    void restore(const nn::RunRecord& record, const std::string& path);

    std::string name_;
    std::vector<std::pair<std::string, autograd::Tensor>> params_;  // the model's, by name
    std::vector<autograd::Tensor> copy_;                            // their values at the best step
    BestStep best_;
};

}  // namespace run
