#pragma once
// The optimizer base, with PyTorch's habits: construct over model.parameters(),
// then per step zero_grad(), loss.backward(), step().
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lectern/autograd/autograd.h"

namespace nn::optim {

using autograd::Tensor;

// torch.optim's param_groups: parameters that share a learning rate and a weight
// decay. Unset, each is the optimizer's own. The optimizer numbers the parameters
// of its groups one after another (parameter i of its state, "exp_avg.i"), so
// groups that keep the model's order (weight_decay_groups in param_groups.h) keep
// the numbering of an optimizer over model.parameters(). `names`, empty or one per
// parameter, are what the optimizer's errors call the parameters (else index and shape).
struct ParamGroup {
    std::vector<Tensor> params;
    std::optional<double> lr = std::nullopt;
    std::optional<double> weight_decay = std::nullopt;
    std::vector<std::string> names = {};
};

// model.named_parameters(), which every optimizer also takes, so that its errors name them.
using NamedParameters = std::vector<std::pair<std::string, Tensor>>;
ParamGroup named_group(const NamedParameters& params);

class Optimizer {
public:
    // One group of `params`, or `groups`; `weight_decay` fills the groups that name none.
    Optimizer(std::vector<ParamGroup> groups, double lr, double weight_decay);
    virtual ~Optimizer() = default;
    Optimizer(const Optimizer&) = delete;  // a copy would share the state tensors
    Optimizer& operator=(const Optimizer&) = delete;

    // One update of every parameter that has a gradient (under NoGradGuard).
    // Each parameter counts its own updates, as PyTorch's state['step'] does:
    // Adam's bias correction for a parameter that first gets a gradient at
    // optimizer step k is that of its step 1, not step k.
    void step();
    void zero_grad();
    double lr() const { return lr_; }
    // A schedule's rate for this step: the base rate becomes lr, and every group's lr keeps its
    // ratio to the base rate of construction (a group made at 10x the base stays at 10x, as
    // PyTorch's schedulers scale each group's own initial_lr). A group without its own lr
    // takes lr exactly. ValueError, changing nothing, when the optimizer was made with base
    // rate 0 and a group has an lr of its own (no ratio to keep): use scale_lr.
    void set_lr(double lr);
    // LambdaLR's rule: every group's lr = its lr at construction times `factor` (>= 0).
    void scale_lr(double factor);
    // The groups with their lr and weight decay filled in; set_group_lr changes one.
    const std::vector<ParamGroup>& param_groups() const { return groups_; }
    void set_group_lr(std::size_t group, double lr);
    std::int64_t step_count() const { return steps_; }                                 // optimizer steps taken
    std::int64_t param_step_count(std::size_t i) const { return param_steps_.at(i); }  // updates of parameter i

    // Per-parameter state (momentum, moments) by name, e.g. "exp_avg.3", and
    // "step.3", parameter 3's update count (int64 [1]), and its restoration:
    // for checkpoints. load_state checks every name and shape before changing
    // anything: the names must be exactly those this optimizer keeps (each of
    // state_names() and "step" for every parameter updated, nothing for the
    // others). Throws ShapeError / DtypeError / ValueError naming the first
    // record that does not fit, and leaves the optimizer as it was.
    std::vector<std::pair<std::string, Tensor>> named_state() const;
    void load_state(const std::vector<std::pair<std::string, Tensor>>& state, std::int64_t step_count);

    const std::vector<Tensor>& params() const { return params_; }

    // Parameter i's group's learning rate and weight decay.
    double lr_of(std::size_t i) const { return *groups_[group_of_[i]].lr; }
    double weight_decay_of(std::size_t i) const { return *groups_[group_of_[i]].weight_decay; }

protected:
    // What the optimizer keeps per updated parameter besides its step count:
    // "exp_avg" and "exp_avg_sq" (Adam), "momentum_buffer" (SGD with momentum).
    virtual std::vector<std::string> state_names() const = 0;
    // Updates parameter i given its gradient; state tensors are created lazily
    // by the subclass through state(name, i).
    virtual void update(std::size_t i, Tensor& param, const Tensor& grad) = 0;
    // Updates the parameters `active` (those with a gradient) in one call, so that a subclass
    // can split the whole step over the threads at once; by default update() for each.
    virtual void update_all(const std::vector<std::size_t>& active);
    Tensor& state(const std::string& name, std::size_t i);  // zeros like param i on first use
    bool has_state(const std::string& name, std::size_t i) const { return state_.count({name, i}) > 0; }

    std::vector<Tensor> params_;
    std::vector<ParamGroup> groups_;
    std::vector<std::size_t> group_of_;  // params_[i] is in groups_[group_of_[i]]
    double lr_;
    std::int64_t steps_ = 0;
    double initial_lr_;                // the base rate at construction
    std::vector<double> initial_lrs_;  // each group's lr at construction (PyTorch's initial_lr)

private:
    std::vector<std::int64_t> param_steps_;                        // updates of each parameter
    std::map<std::pair<std::string, std::size_t>, Tensor> state_;  // (name, param index) -> tensor
};

}  // namespace nn::optim
