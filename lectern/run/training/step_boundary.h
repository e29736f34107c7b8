#pragma once
// What every training loop does after a step: save the run to --save when
// --save-every is due, when a signal asked it to stop, or at the last step
// (unless `save_at_end` is false: the program writes its result itself);
// rank 0 writes, the ranks agree on when; then stop if asked, with one line
// saying what was saved. A run stopped here resumes to the same result.
#include <cstdint>
#include <functional>
#include <string>

#include "lectern/distributed/communicator.h"
#include "lectern/distributed/data_parallel.h"
#include "lectern/run/flags/checkpoint_flags.h"
#include "lectern/run/training/run_state.h"

namespace run {

class StepBoundary {
public:
    // From here to its end, a stop signal says at once what the stop will save (interruption.h).
    StepBoundary(const CheckpointFlags& flags, std::int64_t steps, const distributed::Communicator& comm,
                 bool save_at_end = true);
    ~StepBoundary();
    StepBoundary(const StepBoundary&) = delete;
    StepBoundary& operator=(const StepBoundary&) = delete;

    // After step `step`: when a save is due, calls save(path) on every rank
    // (it may gather from the ranks; rank 0 writes), then throws Interrupted if
    // a signal asked the run to stop.
    void after(std::int64_t step, const std::function<void(const std::string&)>& save);
    // Says where the run's checkpoint was written, if it saved at the end,
    // and in a job of several processes what summing their gradients cost.
    void finish(const distributed::DataParallel& dp) const;
    // After the last step: throws Interrupted if a signal came since the last
    // boundary (during the final save, say), the run being saved. Without a
    // final save it does nothing: the program writes its result, and
    // run_program then ends it with the signal's status.
    void stop_if_asked() const;

private:
    std::string path_;
    std::int64_t steps_;
    bool save_at_end_;
    const distributed::Communicator& comm_;
    SaveSchedule every_;
    std::int64_t saved_at_ = -1;
};

}  // namespace run
