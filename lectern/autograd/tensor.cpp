#include "lectern/autograd/tensor.h"

#include <cstring>

#include <fmt/format.h>

#include "lectern/autograd/allocator.h"
#include "lectern/autograd/checks.h"
#include "lectern/autograd/element.h"
#include "lectern/autograd/graph.h"

namespace autograd {

namespace {

// Calls fn(T{}) with T the C++ type of any dtype.
template <class Fn>
void dispatch_any(Dtype d, Fn&& fn) {
    if (d == Dtype::int64) return fn(std::int64_t{});
    dispatch_floating(d, fn);
}

}  // namespace

Storage::Storage(std::size_t n) : data(allocate(n)), bytes(n) {}
Storage::~Storage() { deallocate(data); }

Tensor Tensor::empty(const Shape& shape, Dtype dtype) {
    for (auto d : shape)
        if (d < 0) throw ShapeError(fmt::format("empty: negative size in shape {}", shape_str(shape)));
    // numel times the element's size, exactly: an int64 count of elements may not fit
    // in a 32-bit size_t (WebAssembly's), and a cast would wrap it to a small block.
    std::size_t bytes;
    if (__builtin_mul_overflow(autograd::numel(shape), dtype_size(dtype), &bytes))
        throw ShapeError(fmt::format("empty: a {} tensor of shape {} needs more bytes than a size_t can count",
                                     dtype_name(dtype), shape_str(shape)));
    auto impl = std::make_shared<TensorImpl>();
    impl->storage = std::make_shared<Storage>(bytes);
    impl->shape = shape;
    impl->dtype = dtype;
    return Tensor(std::move(impl));
}

void Tensor::check_defined(const char* what) const {
    if (!impl_) throw ValueError(fmt::format("{}: the tensor is undefined", what));
}

const Shape& Tensor::shape() const {
    check_defined("shape");
    return impl_->shape;
}

std::int64_t Tensor::size(std::int64_t d) const { return shape()[normalize_dim("size", d, dim())]; }
std::int64_t Tensor::numel() const { return autograd::numel(shape()); }
Dtype Tensor::dtype() const {
    check_defined("dtype");
    return impl_->dtype;
}

template <class T>
T* Tensor::data() const {
    check_defined("data");
    if (impl_->dtype != dtype_of<T>())
        throw DtypeError(
            fmt::format("data: tensor is {}, asked for {}", dtype_name(impl_->dtype), dtype_name(dtype_of<T>())));
    return static_cast<T*>(impl_->storage->data);
}
template float* Tensor::data<float>() const;
template double* Tensor::data<double>() const;
template std::int64_t* Tensor::data<std::int64_t>() const;

void* Tensor::raw_data() const {
    check_defined("data");
    return impl_->storage->data;
}

namespace {

std::int64_t flat_index(const Tensor& t, const Shape& index) {
    const Shape& s = t.shape();
    if (index.size() != s.size())
        throw IndexError(fmt::format("at: index {} has {} coordinates for a tensor of shape {}", shape_str(index),
                                     index.size(), shape_str(s)));
    std::int64_t flat = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        std::int64_t k = index[i] < 0 ? index[i] + s[i] : index[i];
        if (k < 0 || k >= s[i])
            throw IndexError(fmt::format("at: index {} out of range for shape {}", shape_str(index), shape_str(s)));
        flat = flat * s[i] + k;
    }
    return flat;
}

}  // namespace

double Tensor::item() const {
    check_defined("item");
    if (numel() != 1)
        throw ShapeError(fmt::format("item: tensor of shape {} has {} elements, not 1", shape_str(shape()), numel()));
    return detail::read_element(*this, 0);
}

double Tensor::at(const Shape& index) const { return detail::read_element(*this, flat_index(*this, index)); }

void Tensor::set(const Shape& index, double value) {
    if (requires_grad() && grad_enabled())
        throw GraphError("set: in-place write to a tensor that requires grad; use a NoGradGuard");
    detail::write_element(*this, flat_index(*this, index), value);
    ++impl_->storage->version;
}

std::vector<double> Tensor::to_vector() const {
    check_defined("to_vector");
    std::vector<double> v(static_cast<std::size_t>(numel()));
    dispatch_any(dtype(), [&](auto zero) {
        const auto* in = data<decltype(zero)>();
        for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(in[i]);
    });
    return v;
}

bool Tensor::requires_grad() const { return impl_ && impl_->requires_grad; }

Tensor& Tensor::requires_grad_(bool on) {
    check_defined("requires_grad_");
    if (on && !is_floating(dtype()))
        throw DtypeError(
            fmt::format("requires_grad_: only float32/float64 tensors can require grad, got {}", dtype_name(dtype())));
    if (!is_leaf()) throw GraphError("requires_grad_: only a leaf tensor can change requires_grad; use detach()");
    impl_->requires_grad = on;
    return *this;
}

bool Tensor::is_leaf() const { return !impl_ || !impl_->grad_fn; }

Tensor Tensor::grad() const {
    check_defined("grad");
    if (!impl_->grad && !is_leaf() && !impl_->retains_grad)
        throw GraphError(
            fmt::format("grad: this tensor is not a leaf (the output of '{}'), and backward() keeps only "
                        "the gradients of leaves; call retain_grad() on it before backward() to keep its "
                        "gradient",
                        impl_->grad_fn->name));
    return impl_->grad ? Tensor(impl_->grad) : Tensor();
}

Tensor& Tensor::retain_grad() {
    check_defined("retain_grad");
    if (!requires_grad())
        throw GraphError("retain_grad: this tensor does not require grad, so no backward() reaches it");
    if (is_leaf() || impl_->retains_grad) return *this;  // a leaf keeps its gradient anyway
    impl_->retains_grad = true;
    impl_->grad_fn->retained.push_back(impl_);
    return *this;
}

void Tensor::zero_grad() {
    check_defined("zero_grad");
    impl_->grad.reset();
}

void Tensor::set_grad(const Tensor& g) {
    check_defined("set_grad");
    if (g.defined()) {
        if (g.shape() != shape())
            throw ShapeError(fmt::format("set_grad: gradient of shape {} for a tensor of shape {}",
                                         shape_str(g.shape()), shape_str(shape())));
        check_same_dtype("set_grad", *this, g);
    }
    impl_->grad = g.impl_ptr();
}

Tensor Tensor::detach() const {
    check_defined("detach");
    auto impl = std::make_shared<TensorImpl>();
    impl->storage = impl_->storage;
    impl->shape = impl_->shape;
    impl->dtype = impl_->dtype;
    return Tensor(std::move(impl));
}

// y = x in fresh storage;  dx = dy
Tensor Tensor::clone() const {
    check_defined("clone");
    Tensor out = empty(shape(), dtype());
    std::memcpy(out.raw_data(), raw_data(), static_cast<std::size_t>(numel()) * dtype_size(dtype()));
    return record("clone", {*this}, out, [](const Tensor& dy) { return std::vector{dy}; });
}

// y = x in `target`'s dtype;  dx = dy in x's dtype (none when y is int64). Each element goes
// through double, as read_element and write_element take it: an int64 past 2^53 rounds to
// double first, a double past float's range becomes infinity.
Tensor Tensor::to(Dtype target) const {
    check_defined("to");
    if (target == dtype()) return clone();
    Tensor out = empty(shape(), target);
    const std::int64_t n = numel();
    dispatch_any(dtype(), [&](auto from) {
        using From = decltype(from);
        dispatch_any(target, [&](auto to) {
            using To = decltype(to);
            const From* in = data<From>();
            To* o = out.data<To>();
            for (std::int64_t i = 0; i < n; ++i) o[i] = static_cast<To>(static_cast<double>(in[i]));
        });
    });
    if (!is_floating(target)) return out;
    return record("to", {*this}, out, [from = dtype()](const Tensor& dy) { return std::vector{dy.to(from)}; });
}

}  // namespace autograd
