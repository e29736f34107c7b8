#pragma once
// A run of several trainings in turn, kept in one checkpoint (text_classifier:
// the bag of words, the pre-training, the transformer). Each checkpoint records
// the phase it was saved in; a resumed run takes the phases before it as
// finished (their modules are in the file), resumes that one, and starts the
// later ones afresh.
#include <string>
#include <vector>

#include "lectern/nn/checkpoint.h"

namespace run {

enum class PhaseStart { finished, resume, afresh };

class TrainingPhases {
public:
    // `names` in the order they run; `program` names the run in messages.
    TrainingPhases(std::vector<std::string> names, std::string program);

    // The phase `saved` (the record of the checkpoint at `path`) was saved in;
    // std::runtime_error naming the file when it names none of these.
    std::string saved_in(const nn::RunRecord& saved, const std::string& path) const;

    // How `phase` starts in a run resumed from a checkpoint saved in `reached`
    // ("" for a fresh run: every phase afresh).
    PhaseStart start_of(const std::string& phase, const std::string& reached) const;

    static constexpr const char* kRecordName = "phase";  // the run record's text entry

private:
    std::ptrdiff_t index(const std::string& phase) const;
    std::vector<std::string> names_;
    std::string program_;
};

}  // namespace run
