#include "lectern/nn/optim/optimizer.h"

#include <algorithm>
#include <charconv>
#include <set>

#include <fmt/format.h>

namespace nn::optim {

using namespace autograd;

namespace {

void check_lr(double lr) {
    if (!(lr >= 0)) throw ValueError(fmt::format("Optimizer: learning rate {} must be >= 0", lr));
}

// How an error names parameter `index` (across groups), `name` if it has one.
std::string describe(const Tensor& p, std::size_t index, const std::string& name) {
    if (!name.empty()) return fmt::format("parameter '{}' {}", name, shape_str(p.shape()));
    return fmt::format("parameter {} {}", index, shape_str(p.shape()));
}

}  // namespace

ParamGroup named_group(const NamedParameters& params) {
    ParamGroup group;
    for (const auto& [name, p] : params) {
        group.names.push_back(name);
        group.params.push_back(p);
    }
    return group;
}

Optimizer::Optimizer(std::vector<ParamGroup> groups, double lr, double weight_decay)
    : groups_(std::move(groups)), lr_(lr), initial_lr_(lr) {
    check_lr(lr);
    std::vector<const TensorImpl*> seen;
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        ParamGroup& group = groups_[g];
        group.lr = group.lr.value_or(lr);
        group.weight_decay = group.weight_decay.value_or(weight_decay);
        check_lr(*group.lr);
        if (!(*group.weight_decay >= 0))
            throw ValueError(fmt::format("Optimizer: group {}'s weight decay {} must be >= 0", g, *group.weight_decay));
        initial_lrs_.push_back(*group.lr);
        if (!group.names.empty() && group.names.size() != group.params.size())
            throw ValueError(fmt::format("Optimizer: group {} has {} names for {} parameters", g, group.names.size(),
                                         group.params.size()));
        for (std::size_t k = 0; k < group.params.size(); ++k) {
            const Tensor& p = group.params[k];
            const std::string who = describe(p, params_.size(), group.names.empty() ? "" : group.names[k]);
            check_floating("Optimizer", p);
            if (!p.requires_grad())
                throw ValueError(
                    fmt::format("Optimizer: {} of group {} does not require grad (frozen?); pass only "
                                "the parameters to train",
                                who, g));
            if (std::find(seen.begin(), seen.end(), p.impl()) != seen.end())
                throw ValueError(
                    fmt::format("Optimizer: {} of group {} appears twice (it would be updated twice per "
                                "step)",
                                who, g));
            seen.push_back(p.impl());
            params_.push_back(p);
            group_of_.push_back(g);
        }
    }
    if (params_.empty()) throw ValueError("Optimizer: no parameters to optimize");
    param_steps_.assign(params_.size(), 0);
}

void Optimizer::set_lr(double lr) {
    check_lr(lr);
    for (std::size_t g = 0; g < groups_.size(); ++g)
        if (initial_lrs_[g] != initial_lr_ && initial_lr_ == 0)
            throw ValueError(
                fmt::format("Optimizer: set_lr({}): group {} has lr {} of its own but the base rate was 0, "
                            "so there is no ratio to keep; use scale_lr(factor)",
                            lr, g, initial_lrs_[g]));
    lr_ = lr;
    for (std::size_t g = 0; g < groups_.size(); ++g)  // a group at the base rate takes lr exactly, unrounded
        groups_[g].lr = initial_lrs_[g] == initial_lr_ ? lr : initial_lrs_[g] * (lr / initial_lr_);
}

void Optimizer::scale_lr(double factor) {
    if (!(factor >= 0)) throw ValueError(fmt::format("Optimizer: scale_lr factor {} must be >= 0", factor));
    lr_ = initial_lr_ * factor;
    for (std::size_t g = 0; g < groups_.size(); ++g) groups_[g].lr = initial_lrs_[g] * factor;
}

void Optimizer::set_group_lr(std::size_t group, double lr) {
    if (group >= groups_.size())
        throw ValueError(fmt::format("Optimizer: no group {} (there are {})", group, groups_.size()));
    check_lr(lr);
    groups_[group].lr = lr;
}

void Optimizer::step() {
    NoGradGuard no_grad;
    ++steps_;
    std::vector<std::size_t> active;
    for (std::size_t i = 0; i < params_.size(); ++i) {
        if (!params_[i].grad().defined()) continue;
        ++param_steps_[i];
        active.push_back(i);
    }
    update_all(active);
    // The parameters changed in place: a graph recorded before this step can no longer run backward.
    for (std::size_t i : active) ++params_[i].impl()->storage->version;
}

void Optimizer::update_all(const std::vector<std::size_t>& active) {
    for (std::size_t i : active) update(i, params_[i], params_[i].grad());
}

void Optimizer::zero_grad() {
    for (Tensor& p : params_) p.zero_grad();
}

Tensor& Optimizer::state(const std::string& name, std::size_t i) {
    auto it = state_.find({name, i});
    if (it == state_.end())
        it = state_.emplace(std::pair{name, i}, zeros(params_[i].shape(), params_[i].dtype())).first;
    return it->second;
}

std::vector<std::pair<std::string, Tensor>> Optimizer::named_state() const {
    std::vector<std::pair<std::string, Tensor>> out;
    for (const auto& [key, t] : state_) out.emplace_back(fmt::format("{}.{}", key.first, key.second), t);
    for (std::size_t i = 0; i < params_.size(); ++i)
        if (param_steps_[i] > 0)
            out.emplace_back(fmt::format("step.{}", i),
                             tensor({static_cast<double>(param_steps_[i])}, {1}, Dtype::int64));
    return out;
}

void Optimizer::load_state(const std::vector<std::pair<std::string, Tensor>>& state, std::int64_t step_count) {
    if (step_count < 0) throw ValueError(fmt::format("Optimizer: step count {} is negative", step_count));
    std::map<std::pair<std::string, std::size_t>, Tensor> parsed;
    std::vector<std::int64_t> param_steps(params_.size(), 0);
    std::vector<std::pair<std::string, std::size_t>> keys;  // each record's (kind, parameter), in the file's order
    std::set<std::pair<std::string, std::size_t>> seen;
    for (const auto& [name, t] : state) {
        auto dot = name.rfind('.');
        std::size_t i = 0;
        const char* first = name.data() + (dot == std::string::npos ? name.size() : dot + 1);
        const char* last = name.data() + name.size();
        auto [end, ec] = std::from_chars(first, last, i);
        if (dot == std::string::npos || first == last || ec != std::errc() || end != last)
            throw ValueError(fmt::format("Optimizer: state name '{}' is not <name>.<parameter index>", name));
        if (i >= params_.size())
            throw ValueError(
                fmt::format("Optimizer: state '{}' is for parameter {}, but there are {}", name, i, params_.size()));
        keys.emplace_back(name.substr(0, dot), i);
        if (!seen.insert(keys.back()).second)
            throw ValueError(fmt::format("Optimizer: state '{}' appears twice", name));
        if (name.compare(0, dot, "step") == 0) {
            if (t.dtype() != Dtype::int64 || t.shape() != Shape{1} || t.data<std::int64_t>()[0] < 0)
                throw ValueError(fmt::format("Optimizer: state '{}' must be one int64 count >= 0, got {} {}", name,
                                             dtype_name(t.dtype()), shape_str(t.shape())));
            param_steps[i] = t.data<std::int64_t>()[0];
            continue;
        }
        if (t.shape() != params_[i].shape() || t.dtype() != params_[i].dtype()) {
            std::string msg =
                fmt::format("Optimizer: state '{}' is {} {}, parameter {} is {} {}", name, dtype_name(t.dtype()),
                            shape_str(t.shape()), i, dtype_name(params_[i].dtype()), shape_str(params_[i].shape()));
            if (t.dtype() != params_[i].dtype()) throw DtypeError(msg);
            throw ShapeError(msg);
        }
        parsed[{name.substr(0, dot), i}] = t.clone();
    }
    // The names must be exactly the optimizer's: a record renamed, missing or
    // extra would resume a run other than the one saved, and an unknown one
    // would be carried into the next file.
    const std::vector<std::string> kinds = state_names();
    std::string expected;
    for (const std::string& kind : kinds) expected += "'" + kind + "', ";
    expected += "'step' per updated parameter";
    for (const auto& [kind, i] : keys) {
        if (kind == "step") continue;
        if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
            throw ValueError(
                fmt::format("Optimizer: state '{}.{}' is not this optimizer's (it keeps {})", kind, i, expected));
        if (param_steps[i] == 0)
            throw ValueError(
                fmt::format("Optimizer: state '{}.{}' is for parameter {}, which records no update "
                            "('step.{}' absent or 0)",
                            kind, i, i, i));
    }
    for (std::size_t i = 0; i < params_.size(); ++i)
        for (const std::string& kind : kinds)
            if (param_steps[i] > 0 && !parsed.contains({kind, i}))
                throw ValueError(
                    fmt::format("Optimizer: state '{}.{}' is missing: parameter {} was updated {} times "
                                "(it keeps {})",
                                kind, i, i, param_steps[i], expected));
    state_ = std::move(parsed);
    param_steps_ = std::move(param_steps);
    steps_ = step_count;
}

}  // namespace nn::optim
