#include "lectern/nn/module.h"

#include <algorithm>

namespace nn {
namespace {

// Replaces the tensor's data with a converted copy, keeping its handle.
void convert_in_place(Tensor& t, Dtype dtype) {
    if (t.dtype() == dtype) return;
    Tensor c = t.to(dtype);
    t.impl()->storage = c.impl()->storage;
    t.impl()->dtype = dtype;
    t.impl()->grad.reset();
}

}  // namespace

Tensor Module::register_parameter(std::string name, Tensor t) {
    autograd::check_floating("register_parameter", t);
    t.requires_grad_(true);
    params_.emplace_back(std::move(name), t);
    dtype_ = t.dtype();
    return t;
}

Tensor Module::register_buffer(std::string name, Tensor t) {
    autograd::check_defined("register_buffer", t);
    buffers_.emplace_back(std::move(name), t);
    return t;
}

Tensor Module::replace_parameter(const std::string& name, Tensor t) {
    for (auto& [n, p] : params_) {
        if (n != name) continue;
        if (t.shape() != p.shape() || t.dtype() != p.dtype())
            throw autograd::ShapeError("replace_parameter: '" + name + "' is " + autograd::shape_str(p.shape()) +
                                       ", the replacement " + autograd::shape_str(t.shape()));
        p = t;
        return t;
    }
    throw autograd::ValueError("replace_parameter: no parameter named '" + name + "'");
}

void Module::collect(const std::string& prefix, std::vector<std::pair<std::string, Tensor>>& out,
                     std::vector<const autograd::TensorImpl*>& seen) const {
    for (const auto& [name, t] : params_) {
        if (std::find(seen.begin(), seen.end(), t.impl()) != seen.end()) continue;
        seen.push_back(t.impl());
        out.emplace_back(prefix + name, t);
    }
    for (const auto& [name, child] : children_) child->collect(prefix + name + ".", out, seen);
}

std::vector<std::pair<std::string, Tensor>> Module::named_parameters() const {
    std::vector<std::pair<std::string, Tensor>> out;
    std::vector<const autograd::TensorImpl*> seen;
    collect("", out, seen);
    return out;
}

std::vector<Tensor> Module::parameters() const {
    std::vector<Tensor> out;
    for (auto& [name, t] : named_parameters()) out.push_back(t);
    return out;
}

std::int64_t Module::parameter_count() const {
    std::int64_t n = 0;
    for (const Tensor& t : parameters()) n += t.numel();
    return n;
}

void Module::train(bool on) {
    training_ = on;
    for (auto& [name, child] : children_) child->train(on);
}

void Module::zero_grad() {
    for (Tensor& t : parameters()) t.zero_grad();
}

void Module::to(Dtype dtype) {
    for (auto& [name, t] : params_) convert_in_place(t, dtype);
    for (auto& [name, t] : buffers_)
        if (autograd::is_floating(t.dtype())) convert_in_place(t, dtype);
    for (auto& [name, child] : children_) child->to(dtype);
    dtype_ = dtype;
    recompute_buffers();
}

}  // namespace nn
