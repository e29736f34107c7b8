#include "lectern/nn/module.h"

#include <algorithm>

#include <fmt/format.h>

#include "lectern/autograd/printable.h"

namespace nn {
namespace {

// Replaces the tensor's data with a converted copy, keeping its handle.
void convert_in_place(Tensor& t, Dtype dtype) {
    if (t.dtype() == dtype) return;
    autograd::NoGradGuard no_grad;  // the parameter itself changes: no graph from it to itself
    Tensor c = t.to(dtype);
    t.impl()->storage = c.impl()->storage;
    t.impl()->dtype = dtype;
    t.impl()->grad.reset();
}

}  // namespace

// One namespace for a module's parameters, buffers and submodules: state_dict() and a
// checkpoint key each by its dotted name, so a second of a name would silently shadow the first.
void Module::check_new_name(const char* what, const std::string& name) const {
    if (name.empty() || name.find('.') != std::string::npos)
        throw autograd::ValueError(
            fmt::format("{}: the name '{}' must be non-empty and without '.'", what, autograd::printable(name)));
    auto has = [&](const auto& list) {
        return std::any_of(list.begin(), list.end(), [&](const auto& entry) { return entry.first == name; });
    };
    const char* taken = has(params_) ? "parameter" : has(buffers_) ? "buffer" : has(children_) ? "submodule" : nullptr;
    if (taken)
        throw autograd::ValueError(
            fmt::format("{}: this module has a {} named '{}' already; give the second a name "
                        "of its own",
                        what, taken, autograd::printable(name)));
}

Tensor Module::register_parameter(std::string name, Tensor t) {
    check_new_name("register_parameter", name);
    autograd::check_floating("register_parameter", t);
    t.requires_grad_(true);
    params_.emplace_back(std::move(name), t);
    dtype_ = t.dtype();
    return t;
}

Tensor Module::register_buffer(std::string name, Tensor t, bool persistent) {
    check_new_name("register_buffer", name);
    autograd::check_defined("register_buffer", t);
    if (persistent) persistent_.push_back(name);
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

std::vector<std::pair<std::string, Tensor>> Module::named_buffers() const {
    std::vector<std::pair<std::string, Tensor>> out;
    for (const auto& [name, t] : buffers_)
        if (std::find(persistent_.begin(), persistent_.end(), name) != persistent_.end()) out.emplace_back(name, t);
    for (const auto& [name, child] : children_)
        for (auto& [n, t] : child->named_buffers()) out.emplace_back(name + "." + n, t);
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
