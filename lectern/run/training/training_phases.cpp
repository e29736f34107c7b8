#include "lectern/run/training/training_phases.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace run {

TrainingPhases::TrainingPhases(std::vector<std::string> names, std::string program)
    : names_(std::move(names)), program_(std::move(program)) {}

std::ptrdiff_t TrainingPhases::index(const std::string& phase) const {
    return std::find(names_.begin(), names_.end(), phase) - names_.begin();
}

std::string TrainingPhases::saved_in(const nn::RunRecord& saved, const std::string& path) const {
    const auto it = saved.text.find(kRecordName);
    if (it == saved.text.end() || index(it->second) == static_cast<std::ptrdiff_t>(names_.size()))
        throw std::runtime_error(fmt::format("{} names no training of {}'s ('{}')", path, program_, kRecordName));
    return it->second;
}

PhaseStart TrainingPhases::start_of(const std::string& phase, const std::string& reached) const {
    if (reached.empty()) return PhaseStart::afresh;
    const std::ptrdiff_t at = index(phase), saved = index(reached);
    return at < saved ? PhaseStart::finished : at == saved ? PhaseStart::resume : PhaseStart::afresh;
}

}  // namespace run
