#pragma once
// The one training loop under every program (nanoGPT writes its loop once, in
// train.py; this is Lectern's). A program hands it the loss of a step on this
// rank's rows, its evaluation and what else its checkpoint must carry:
//
//   run::TrainingLoop loop(model, opt, {.steps = 600, .epoch_steps = 50, .unit = "tok",
//                                      .lr = [&](std::int64_t s) { return schedule.lr(s); }},
//                          run);                    // the program's run::Run
//   loop.keep("batches", batches);               // a generator a resumed run restores
//   loop.evaluate = [&](std::int64_t epoch, std::int64_t step) {   // rank 0, at each epoch's end
//       loop.curve("eval").emplace_back(step, eval_loss(model));
//   };
//   loop.run([&](std::int64_t step) {
//       Batch b = next_batch(loop.share(batch));    // this rank's rows of the batch
//       return run::StepLoss{batch_loss(model, b), b.tokens, batch_tokens};
//   });
//   loop.finish({"copy_task: loss and learning rate", "eval", "held-out loss per epoch"}, o.csv, o.figures);
//
// Each step, in this order: the learning rate lr(step); the program's loss;
// the batch's mean over the ranks, checked finite; backward, the gradients
// summed over the ranks (distributed::DataParallel) and checked finite;
// clipping to the global norm `clip`; the optimizer's step; the curves "loss"
// and "lr" and the progress bar; at an epoch's end, `evaluate` on rank 0,
// whose new points on the curves must be finite; then the step boundary: a
// save when --save-every is due, a stop signal was received or the run is at
// its last step (unless plan.save_at_end is false; rank 0 writes, every rank
// agrees when), and a stop after a signal (run::Interrupted). Weights that are
// not finite are never saved, nor handed back after the last step: training
// stops with nn::NonFiniteError, what was saved before left as it was.
//
// What a checkpoint carries beside the weights and the optimizer's state: the
// program's flags, the step, every generator (dropout's, one per rank, and
// those the program keeps), every curve, and whatever the program keeps with
// keep(name, save, restore) (a data position, the best parameters so far). A
// run resumed from it takes the steps the stopped run would have taken, and
// ends with the same bits.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lectern/autograd/autograd.h"
#include "lectern/distributed/communicator.h"
#include "lectern/distributed/data_parallel.h"
#include "lectern/nn/checkpoint.h"
#include "lectern/nn/module.h"
#include "lectern/nn/optim/optimizer.h"
#include "lectern/run/flags/checkpoint_flags.h"
#include "lectern/run/shell/program.h"
#include "lectern/run/training/run_state.h"

namespace run {

struct LoopPlan {
    std::int64_t steps;                      // the last step; steps count from 1
    std::int64_t epoch_steps;                // an epoch: evaluation after every this many steps, and after the last
    std::string unit;                        // what the progress bar's rate counts: "tok", "img", "text"
    std::function<double(std::int64_t)> lr;  // the learning rate of step s
    double clip = 0;                         // clip the gradients' global norm to this; 0: no clipping
    bool epoch_lines = true;                 // "epoch 2/30" and a bar per epoch; false: one bar for the run
    // false: no save after the last step, only at --save-every and on a stop
    // signal. For a program that writes its result in a format of its own
    // (gpt2's safetensors), whose checkpoint only resumes a stopped run.
    bool save_at_end = true;
};

// A step's loss on this rank's rows. `loss` is the mean over the `counted`
// items (tokens, images) this rank computed, undefined when its share of the
// batch was empty; `items` is the whole batch's, for the progress bar's rate.
// `shown`, when defined, is the part of `loss` the curve records (the cross-
// entropy without a mixture of experts' balancing term).
struct StepLoss {
    autograd::Tensor loss;
    std::int64_t counted = 0;
    std::int64_t items = 0;
    autograd::Tensor shown = {};
};

class TrainingLoop {
public:
    // The checkpoint flags say where to save and what to resume from; `flags`
    // is the run record of the program's flags. `resume_from` is the checkpoint
    // --resume names, already read (run::Run reads it once); null: read here.
    TrainingLoop(nn::Module& model, nn::optim::Optimizer& opt, LoopPlan plan, const CheckpointFlags& checkpoint,
                 nn::RunRecord flags, std::shared_ptr<const nn::CheckpointFile> resume_from = nullptr);
    // A program's loop: the run's checkpoint flags, its record, the checkpoint it read.
    TrainingLoop(nn::Module& model, nn::optim::Optimizer& opt, LoopPlan plan, Run& run);

    // What a checkpoint carries and a resumed run restores (before run()):
    // a generator, by name; or anything, by a pair of functions that write it
    // into the record and read it back (throwing std::runtime_error naming
    // the file when it is not there).
    void keep(const std::string& name, autograd::Generator& gen);
    void keep(std::function<void(nn::RunRecord&)> save,
              std::function<void(const nn::RunRecord&, const std::string&)> restore);
    // Text the record carries as it is (a tokenizer's merges, a corpus digest).
    void keep_text(const std::string& name, std::string text);
    // The module the checkpoint holds and a resumed run loads, when it is more
    // than the model trained (`whole` holds it): a run of several trainings,
    // one loop each, keeps all its modules in one file. By default the model.
    void checkpoint_holds(nn::Module& whole) { saved_ = &whole; }

    // The curve of that name, made empty on first use: saved, restored,
    // written to the CSV. The loop keeps "loss" and "lr".
    Curve& curve(const std::string& name);
    const Curve& curve(const std::string& name) const;
    // Every curve, in the order they were first named (a resumed run's too:
    // the record lists them), the CSV's columns in that order.
    const std::vector<std::pair<std::string, Curve>>& curves() const { return curves_; }

    // Rows [begin, end) of a batch of n rows that this rank computes.
    std::pair<std::int64_t, std::int64_t> share(std::int64_t n) const {
        return distributed::DataParallel::share(n, comm_);
    }
    const distributed::Communicator& communicator() const { return comm_; }
    std::int64_t step() const { return step_; }
    std::int64_t steps() const { return plan_.steps; }
    std::int64_t epoch_of(std::int64_t step) const { return (step - 1) / plan_.epoch_steps + 1; }
    std::int64_t epochs() const { return epoch_of(plan_.steps); }
    bool resumed() const { return !checkpoint_.resume.empty(); }

    // At the end of each epoch and after the last step, on rank 0 (the other
    // ranks wait for it at the next collective).
    std::function<void(std::int64_t epoch, std::int64_t step)> evaluate;
    // After each optimizer step, on every rank (char_lm records its routing).
    std::function<void(std::int64_t step)> after_step;
    // Appended to the progress bar's metrics ("best validation 71.1% (step 850)"); "" adds nothing.
    std::function<std::string()> bar_note;

    // Checks that the ranks of an mpirun job run one job (run/shell/job_agreement.h:
    // the flags and texts the record holds, the parameters, --save), joins the
    // job's data parallelism (rank 0's weights on every rank), restores the
    // run --resume names, if any, then trains from the step after the last one
    // taken to plan.steps. Throws run::Interrupted after a stop signal, once
    // the run is saved.
    void run(const std::function<StepLoss(std::int64_t step)>& step_loss);

    // On rank 0: the curves as CSV (one row a step, a column a curve) and the
    // loss curve drawn, with `eval` the held-out curve beside the loss, when
    // asked for ("" is not asked for).
    struct Figure {
        std::string title, eval, eval_name;
    };
    void finish(const Figure& figure, const std::string& csv, const std::string& figures) const;

private:
    nn::RunRecord record() const;  // every rank: dropout's generators are gathered
    // NonFiniteError naming the first curve `evaluate` gave a NaN or an infinity at `step`.
    void check_finite_evaluation(std::int64_t step) const;
    void restore(const nn::RunRecord& record, const std::string& path);

    nn::Module& model_;
    nn::Module* saved_;  // what the checkpoint holds: model_ or a module holding it
    nn::optim::Optimizer& opt_;
    LoopPlan plan_;
    CheckpointFlags checkpoint_;
    nn::RunRecord flags_;
    std::shared_ptr<const nn::CheckpointFile> resume_from_;
    const distributed::Communicator& comm_;
    std::unique_ptr<distributed::DataParallel> dp_;
    std::int64_t step_ = 0;
    std::vector<std::pair<std::string, Curve>> curves_;
    std::vector<std::pair<std::string, autograd::Generator*>> generators_;
    std::vector<
        std::pair<std::function<void(nn::RunRecord&)>, std::function<void(const nn::RunRecord&, const std::string&)>>>
        kept_;
};

}  // namespace run
