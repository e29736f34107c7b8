#include "lectern/run/training/step_boundary.h"

#include <fmt/format.h>

#include "lectern/run/shell/console.h"
#include "lectern/run/shell/data_parallel_run.h"
#include "lectern/run/shell/interruption.h"
#include "lectern/run/shell/output_files.h"
#include "lectern/run/shell/progress_bar.h"

namespace run {

StepBoundary::StepBoundary(const CheckpointFlags& flags, std::int64_t steps, const distributed::Communicator& comm,
                           bool save_at_end)
    : path_(flags.save), steps_(steps), save_at_end_(save_at_end), comm_(comm), every_(flags.save_every) {
    if (!comm_.is_root()) return;  // rank 0 speaks for the job
    if (path_.empty()) set_stop_note("\nstopping at the end of this step; nothing is saved (no --save)\n", "");
    else
        set_stop_note(fmt::format("\nstopping: saving {} at the end of this step (a second signal before the save "
                                  "begins ends the run at once, the last checkpoint kept)\n",
                                  path_),
                      fmt::format("\nstill saving {}: the run ends when it is written\n", path_));
}

StepBoundary::~StepBoundary() { set_stop_note("", ""); }

void StepBoundary::after(std::int64_t step, const std::function<void(const std::string&)>& save) {
    const StepDecision d = decide(comm_, stop_signal(), every_.due(step));
    if (!path_.empty() && (d.save || d.stop || (save_at_end_ && step == steps_))) {
        if (comm_.is_root()) require_not_an_input(path_);
        const SavingCheckpoint saving;  // a signal now lets the save finish
        save(path_);
        every_.saved();
        saved_at_ = step;
    }
    note_boundary(step, steps_, saved_at_ == step ? path_ : "");
    if (d.stop) throw Interrupted(d.stop, stop_message(d.stop));
}

void StepBoundary::stop_if_asked() const {
    if (!save_at_end_) return;
    if (const int stop = comm_.max(stop_signal())) throw Interrupted(stop, stop_message(stop));
}

void StepBoundary::finish(const distributed::DataParallel& dp) const {
    if (save_at_end_ && saved_at_ > 0) say("checkpoint written to {}\n", path_);
    if (comm_.size() > 1)
        say("summing the gradients over {} processes took {}\n", comm_.size(), ProgressBar::clock(dp.sync_seconds()));
}

}  // namespace run
