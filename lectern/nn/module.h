#pragma once
// nn::Module: the habits of PyTorch's Module. A module owns named parameters
// and named submodules, so named_parameters() walks the whole tree with dotted
// names ("encoder.layers.0.self_attn.w_q.weight"). train()/eval() switch
// dropout for the whole tree. Each module's forward() is an ordinary member
// function with the arguments its equation needs.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lectern/autograd/autograd.h"

namespace nn {

using autograd::Dtype;
using autograd::Shape;
using autograd::Tensor;

// A module's parameters and saved buffers by dotted name, as torch's state_dict(): copies,
// apart from the graph.
using StateDict = std::map<std::string, Tensor>;

// What load_state_dict(dict, strict = false) passed over (PyTorch's missing_keys, unexpected_keys).
struct StateDictKeys {
    std::vector<std::string> missing;     // the module's names the dict lacks
    std::vector<std::string> unexpected;  // the dict's names the module lacks
};

class Module {
public:
    Module() = default;
    virtual ~Module() = default;
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;

    // Every parameter of the tree, depth first in registration order; a tensor
    // shared by several modules (tied weights) appears once, under its first name.
    std::vector<std::pair<std::string, Tensor>> named_parameters() const;
    std::vector<Tensor> parameters() const;
    std::int64_t parameter_count() const;  // number of scalars
    // Every saved buffer of the tree (register_buffer's persistent ones, e.g. BatchNorm's
    // running statistics), depth first in registration order, with dotted names.
    std::vector<std::pair<std::string, Tensor>> named_buffers() const;

    void train(bool on = true);  // whole tree
    void eval() { train(false); }
    bool is_training() const { return training_; }

    void zero_grad();  // forgets every parameter's gradient
    // Converts every parameter and buffer in place (the handles stay valid),
    // e.g. to float64 for a gradient check. Gradients are dropped.
    void to(Dtype dtype);
    Dtype dtype() const { return dtype_; }

    // In memory, what a checkpoint holds on disk (state_dict.cpp): state_dict() copies every
    // parameter and saved buffer; load_state_dict copies a dict's tensors into them (converted
    // to their dtype). It checks every name first and throws one ValueError naming every missing,
    // unexpected and mis-shaped name, changing nothing; strict = false passes over missing and
    // unexpected names (and returns them) but never a shape that differs.
    StateDict state_dict() const;
    StateDictKeys load_state_dict(const StateDict& dict, bool strict = true);

    // Replaces this module's own parameter `name` by `t` (weight tying, e.g.
    // the Transformer's shared embeddings, 001 "Embeddings and Softmax"). Returns t.
    Tensor replace_parameter(const std::string& name, Tensor t);

protected:
    // A trainable tensor (requires_grad is set). Returns the same handle.
    Tensor register_parameter(std::string name, Tensor t);
    // A tensor that follows to() but is not trained. Saved (in state_dict() and checkpoints)
    // when `persistent`, as BatchNorm's running statistics, which training computes; not saved
    // otherwise, as the sinusoidal table, which the formula recomputes.
    Tensor register_buffer(std::string name, Tensor t, bool persistent = false);
    // Called by to() once this module's parameters and buffers are converted: a
    // module whose buffer is computed, not learned, recomputes it in the new
    // dtype, so a float64 model holds the formula's float64 values, not
    // widened float32 ones.
    virtual void recompute_buffers() {}
    // A submodule, named in the dotted names of its parameters. Like register_parameter and
    // register_buffer, a ValueError naming it if this module has a parameter, buffer or
    // submodule of that name already, or if the name is empty or has a '.'.
    template <class M>
    std::shared_ptr<M> register_module(std::string name, std::shared_ptr<M> m) {
        check_new_name("register_module", name);
        if (!m) throw autograd::ValueError("register_module: the module '" + name + "' is null");
        children_.emplace_back(std::move(name), m);
        return m;
    }

private:
    void check_new_name(const char* what, const std::string& name) const;
    void collect(const std::string& prefix, std::vector<std::pair<std::string, Tensor>>& out,
                 std::vector<const autograd::TensorImpl*>& seen) const;
    std::vector<std::pair<std::string, Tensor>> params_;
    std::vector<std::pair<std::string, Tensor>> buffers_;
    std::vector<std::string> persistent_;  // the names of the buffers that are saved
    std::vector<std::pair<std::string, std::shared_ptr<Module>>> children_;
    bool training_ = true;
    Dtype dtype_ = Dtype::float32;
};

// Eval mode (no dropout) over a scope, the module's previous mode restored on
// exit: decoding and sampling switch it for their duration. The mode is not
// part of a module's value, so a const model may be switched.
class EvalGuard {
public:
    explicit EvalGuard(const Module& m) : module_(const_cast<Module&>(m)), was_training_(m.is_training()) {
        module_.eval();
    }
    ~EvalGuard() { module_.train(was_training_); }
    EvalGuard(const EvalGuard&) = delete;
    EvalGuard& operator=(const EvalGuard&) = delete;

private:
    Module& module_;
    bool was_training_;
};

// A stack of modules of one type, named "0", "1", ... (the notes' clones(layer, N)).
template <class M>
class ModuleList : public Module {
public:
    void push_back(std::shared_ptr<M> m) {
        items_.push_back(register_module(std::to_string(items_.size()), std::move(m)));
    }
    std::size_t size() const { return items_.size(); }
    M& operator[](std::size_t i) const { return *items_.at(i); }
    auto begin() const { return items_.begin(); }
    auto end() const { return items_.end(); }

private:
    std::vector<std::shared_ptr<M>> items_;
};

}  // namespace nn
