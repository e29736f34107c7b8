#pragma once
// nn::Sequential: modules of any types run one after another, each on the output of the one
// before, as torch.nn.Sequential. They are submodules named "0", "1", ... so that
// named_parameters() gives "0.weight", "2.bias", ... as PyTorch names them.
//
//   nn::Sequential mlp(std::make_shared<nn::Linear>(2, 16), std::make_shared<nn::ReLU>(),
//                      std::make_shared<nn::Linear>(16, 1));
//   Tensor y = mlp(x);
#include <concepts>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lectern/nn/module.h"

namespace nn {

// A module a Sequential can hold: one that maps one tensor to one tensor.
template <class M>
concept TensorToTensor = std::derived_from<M, Module> && requires(const M& m, const Tensor& x) {
    { m(x) } -> std::convertible_to<Tensor>;
};

class Sequential : public Module {
public:
    Sequential() = default;
    template <TensorToTensor... Ms>
    explicit Sequential(std::shared_ptr<Ms>... modules) {
        (push_back(std::move(modules)), ...);
    }

    // Appends m as the last step, named by its position.
    template <TensorToTensor M>
    Sequential& push_back(std::shared_ptr<M> m) {
        std::shared_ptr<M> step = register_module(std::to_string(steps_.size()), std::move(m));
        steps_.push_back({step, [step](const Tensor& x) -> Tensor { return (*step)(x); }});
        return *this;
    }

    // x through every step in order; x itself when there is none.
    Tensor forward(const Tensor& x) const;
    Tensor operator()(const Tensor& x) const { return forward(x); }

    std::size_t size() const { return steps_.size(); }
    Module& operator[](std::size_t i) const;  // IndexError past the end

private:
    struct Step {
        std::shared_ptr<Module> module;
        std::function<Tensor(const Tensor&)> apply;
    };
    std::vector<Step> steps_;
};

}  // namespace nn
