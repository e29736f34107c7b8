#pragma once
// The optimizer base, with PyTorch's habits: construct over model.parameters(),
// then per step zero_grad(), loss.backward(), step().
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "lectern/autograd/autograd.h"

namespace nn::optim {

using autograd::Tensor;

class Optimizer {
public:
    Optimizer(std::vector<Tensor> params, double lr);
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
    void set_lr(double lr);
    std::int64_t step_count() const { return steps_; }             // optimizer steps taken
    std::int64_t param_step_count(std::size_t i) const { return param_steps_.at(i); }  // updates of parameter i

    // Per-parameter state (momentum, moments) by name, e.g. "exp_avg.3", and
    // "step.3", parameter 3's update count (int64 [1]), and its restoration:
    // for checkpoints. load_state checks every name and shape
    // before changing anything (nn::CheckpointError-free: throws ShapeError /
    // ValueError, and leaves the optimizer as it was).
    std::vector<std::pair<std::string, Tensor>> named_state() const;
    void load_state(const std::vector<std::pair<std::string, Tensor>>& state, std::int64_t step_count);

    const std::vector<Tensor>& params() const { return params_; }

protected:
    // Updates parameter i given its gradient; state tensors are created lazily
    // by the subclass through state(name, i).
    virtual void update(std::size_t i, Tensor& param, const Tensor& grad) = 0;
    // Updates the parameters `active` (those with a gradient) in one call, so that a subclass
    // can split the whole step over the threads at once; by default update() for each.
    virtual void update_all(const std::vector<std::size_t>& active);
    Tensor& state(const std::string& name, std::size_t i);  // zeros like param i on first use
    bool has_state(const std::string& name, std::size_t i) const { return state_.count({name, i}) > 0; }

    std::vector<Tensor> params_;
    double lr_;
    std::int64_t steps_ = 0;

private:
    std::vector<std::int64_t> param_steps_;  // updates of each parameter
    std::map<std::pair<std::string, std::size_t>, Tensor> state_;  // (name, param index) -> tensor
};

}  // namespace nn::optim
