#include "lectern/data/balanced_sampler.h"

#include <fmt/format.h>

#include "lectern/autograd/errors.h"

namespace data {

BalancedSampler::BalancedSampler(const std::vector<std::int64_t>& labels, std::int64_t classes, std::uint64_t seed)
    : gen_(seed) {
    if (classes < 1) throw autograd::ValueError(fmt::format("BalancedSampler: {} classes", classes));
    by_class_.resize(static_cast<std::size_t>(classes));
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (labels[i] < 0 || labels[i] >= classes)
            throw autograd::ValueError(
                fmt::format("BalancedSampler: text {} has label {}, outside 0 to {}", i, labels[i], classes - 1));
        by_class_[static_cast<std::size_t>(labels[i])].push_back(i);
    }
    for (std::size_t k = 0; k < by_class_.size(); ++k)
        if (by_class_[k].empty()) throw autograd::ValueError(fmt::format("BalancedSampler: class {} has no text", k));
}

std::vector<std::size_t> BalancedSampler::batch(std::int64_t n) {
    std::vector<std::size_t> out;
    for (std::int64_t i = 0; i < n; ++i) {
        const auto& members = by_class_[gen_.next_u64() % by_class_.size()];
        out.push_back(members[gen_.next_u64() % members.size()]);
    }
    return out;
}

}  // namespace data
