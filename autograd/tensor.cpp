#include "autograd/tensor.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "autograd/allocator.h"
#include "autograd/graph.h"
#include "autograd/ops/reduce.h"
#include "autograd/ops/reshape.h"
#include "autograd/ops/concat.h"
#include "autograd/ops/transpose.h"

namespace autograd {

Storage::Storage(std::size_t n) : data(allocate(n)), bytes(n) {}
Storage::~Storage() { deallocate(data, bytes); }

// ---- argument checks --------------------------------------------------------

void check_defined(const char* op, const Tensor& t) {
    if (!t.defined()) throw ValueError(fmt::format("{}: operand is an undefined tensor", op));
}

void check_floating(const char* op, const Tensor& t) {
    check_defined(op, t);
    if (!is_floating(t.dtype()))
        throw DtypeError(fmt::format("{}: expected a float32 or float64 tensor, got {} of shape {}", op,
                                     dtype_name(t.dtype()), shape_str(t.shape())));
}

void check_same_dtype(const char* op, const Tensor& a, const Tensor& b) {
    if (a.dtype() != b.dtype())
        throw DtypeError(fmt::format("{}: dtypes differ: {} {} and {} {}", op, dtype_name(a.dtype()),
                                     shape_str(a.shape()), dtype_name(b.dtype()), shape_str(b.shape())));
}

void check_dtype(const char* op, const Tensor& t, Dtype expected, const char* what) {
    check_defined(op, t);
    if (t.dtype() != expected)
        throw DtypeError(fmt::format("{}: {} must be {}, got {} of shape {}", op, what, dtype_name(expected),
                                     dtype_name(t.dtype()), shape_str(t.shape())));
}

// ---- Tensor -----------------------------------------------------------------

Tensor Tensor::empty(const Shape& shape, Dtype dtype) {
    for (auto d : shape)
        if (d < 0) throw ShapeError(fmt::format("empty: negative size in shape {}", shape_str(shape)));
    std::size_t bytes;
    if (__builtin_mul_overflow(static_cast<std::size_t>(autograd::numel(shape)), dtype_size(dtype), &bytes))
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

template <class T> T* Tensor::data() const {
    check_defined("data");
    if (impl_->dtype != dtype_of<T>())
        throw DtypeError(fmt::format("data: tensor is {}, asked for {}", dtype_name(impl_->dtype),
                                     dtype_name(dtype_of<T>())));
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

double read(const Tensor& t, std::int64_t i) {
    switch (t.dtype()) {
        case Dtype::float32: return t.data<float>()[i];
        case Dtype::float64: return t.data<double>()[i];
        case Dtype::int64: return static_cast<double>(t.data<std::int64_t>()[i]);
    }
    return 0;
}

void write(const Tensor& t, std::int64_t i, double v) {
    switch (t.dtype()) {
        case Dtype::float32: t.data<float>()[i] = static_cast<float>(v); break;
        case Dtype::float64: t.data<double>()[i] = v; break;
        case Dtype::int64: t.data<std::int64_t>()[i] = static_cast<std::int64_t>(v); break;
    }
}

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
    return read(*this, 0);
}

double Tensor::at(const Shape& index) const { return read(*this, flat_index(*this, index)); }

void Tensor::set(const Shape& index, double value) {
    if (requires_grad() && grad_enabled())
        throw GraphError("set: in-place write to a tensor that requires grad; use a NoGradGuard");
    write(*this, flat_index(*this, index), value);
}

std::vector<double> Tensor::to_vector() const {
    check_defined("to_vector");
    std::vector<double> v(static_cast<std::size_t>(numel()));
    for (std::int64_t i = 0; i < numel(); ++i) v[i] = read(*this, i);
    return v;
}

bool Tensor::requires_grad() const { return impl_ && impl_->requires_grad; }

Tensor& Tensor::requires_grad_(bool on) {
    check_defined("requires_grad_");
    if (on && !is_floating(dtype()))
        throw DtypeError(fmt::format("requires_grad_: only float32/float64 tensors can require grad, got {}",
                                     dtype_name(dtype())));
    if (!is_leaf()) throw GraphError("requires_grad_: only a leaf tensor can change requires_grad; use detach()");
    impl_->requires_grad = on;
    return *this;
}

bool Tensor::is_leaf() const { return !impl_ || !impl_->grad_fn; }

Tensor Tensor::grad() const {
    check_defined("grad");
    return impl_->grad ? Tensor(impl_->grad) : Tensor();
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

Tensor Tensor::clone() const {
    check_defined("clone");
    Tensor out = empty(shape(), dtype());
    std::memcpy(out.raw_data(), raw_data(), static_cast<std::size_t>(numel()) * dtype_size(dtype()));
    return out;
}

Tensor Tensor::to(Dtype target) const {
    check_defined("to");
    if (target == dtype()) return clone();
    Tensor out = empty(shape(), target);
    for (std::int64_t i = 0; i < numel(); ++i) write(out, i, read(*this, i));
    return out;
}

namespace {
void check_in_place(const char* op, const Tensor& t) {
    if (!t.defined()) throw ValueError(fmt::format("{}: the tensor is undefined", op));
    if (t.requires_grad() && grad_enabled())
        throw GraphError(fmt::format("{}: in-place update of a tensor that requires grad; use a NoGradGuard", op));
}
}  // namespace

Tensor& Tensor::fill_(double value) {
    check_in_place("fill_", *this);
    switch (dtype()) {
        case Dtype::float32: std::fill_n(data<float>(), numel(), static_cast<float>(value)); break;
        case Dtype::float64: std::fill_n(data<double>(), numel(), value); break;
        case Dtype::int64: std::fill_n(data<std::int64_t>(), numel(), static_cast<std::int64_t>(value)); break;
    }
    return *this;
}

Tensor& Tensor::copy_(const Tensor& src) {
    check_in_place("copy_", *this);
    autograd::check_defined("copy_", src);
    if (src.shape() != shape())
        throw ShapeError(fmt::format("copy_: source shape {} differs from destination {}", shape_str(src.shape()),
                                     shape_str(shape())));
    check_same_dtype("copy_", *this, src);
    std::memcpy(raw_data(), src.raw_data(), static_cast<std::size_t>(numel()) * dtype_size(dtype()));
    return *this;
}

Tensor& Tensor::add_(const Tensor& other, double alpha) {
    check_in_place("add_", *this);
    check_floating("add_", *this);
    check_floating("add_", other);
    if (other.shape() != shape())
        throw ShapeError(fmt::format("add_: shapes differ: {} and {}", shape_str(shape()), shape_str(other.shape())));
    check_same_dtype("add_", *this, other);
    dispatch_floating(dtype(), [&](auto zero) {
        using T = decltype(zero);
        T* y = data<T>();
        const T* x = other.data<T>();
        const T a = static_cast<T>(alpha);
        for (std::int64_t i = 0, n = numel(); i < n; ++i) y[i] += a * x[i];
    });
    return *this;
}

Tensor& Tensor::mul_(double factor) {
    check_in_place("mul_", *this);
    check_floating("mul_", *this);
    dispatch_floating(dtype(), [&](auto zero) {
        using T = decltype(zero);
        T* y = data<T>();
        const T f = static_cast<T>(factor);
        for (std::int64_t i = 0, n = numel(); i < n; ++i) y[i] *= f;
    });
    return *this;
}

Tensor Tensor::reshape(const Shape& s) const { return autograd::reshape(*this, s); }
Tensor Tensor::transpose(std::int64_t d0, std::int64_t d1) const { return autograd::transpose(*this, d0, d1); }
Tensor Tensor::permute(const Shape& dims) const { return autograd::permute(*this, dims); }
Tensor Tensor::unsqueeze(std::int64_t d) const { return autograd::unsqueeze(*this, d); }
Tensor Tensor::squeeze(std::int64_t d) const { return autograd::squeeze(*this, d); }
Tensor Tensor::narrow(std::int64_t d, std::int64_t start, std::int64_t length) const {
    return autograd::narrow(*this, d, start, length);
}
Tensor Tensor::sum() const { return autograd::sum(*this); }
Tensor Tensor::sum(std::int64_t d, bool keepdim) const { return autograd::sum(*this, d, keepdim); }
Tensor Tensor::mean() const { return autograd::mean(*this); }
Tensor Tensor::mean(std::int64_t d, bool keepdim) const { return autograd::mean(*this, d, keepdim); }

// ---- factories ----------------------------------------------------------------

Tensor full(const Shape& shape, double value, Dtype dtype) {
    Tensor t = Tensor::empty(shape, dtype);
    NoGradGuard g;
    t.fill_(value);
    return t;
}
Tensor zeros(const Shape& shape, Dtype dtype) { return full(shape, 0.0, dtype); }
Tensor ones(const Shape& shape, Dtype dtype) { return full(shape, 1.0, dtype); }

Tensor arange(std::int64_t end, Dtype dtype) { return arange(0.0, static_cast<double>(end), 1.0, dtype); }

Tensor arange(double start, double end, double step, Dtype dtype) {
    if (step == 0 || (end - start) * step < 0)
        throw ValueError(fmt::format("arange: step {} cannot go from {} to {}", step, start, end));
    auto n = static_cast<std::int64_t>(std::ceil((end - start) / step));
    Tensor t = Tensor::empty({n}, dtype);
    for (std::int64_t i = 0; i < n; ++i) write(t, i, start + static_cast<double>(i) * step);
    return t;
}

Tensor tensor(const std::vector<double>& values, const Shape& shape, Dtype dtype) {
    if (static_cast<std::int64_t>(values.size()) != autograd::numel(shape))
        throw ShapeError(fmt::format("tensor: {} values do not fill shape {} ({} elements)", values.size(),
                                     shape_str(shape), autograd::numel(shape)));
    Tensor t = Tensor::empty(shape, dtype);
    for (std::size_t i = 0; i < values.size(); ++i) write(t, static_cast<std::int64_t>(i), values[i]);
    return t;
}

Tensor tensor(const std::vector<double>& values, Dtype dtype) {
    return tensor(values, {static_cast<std::int64_t>(values.size())}, dtype);
}

namespace {
template <class Draw>
Tensor random_tensor(const char* op, const Shape& shape, Dtype dtype, Draw draw) {
    if (!is_floating(dtype)) throw DtypeError(fmt::format("{}: random tensors are float32 or float64", op));
    Tensor t = Tensor::empty(shape, dtype);
    for (std::int64_t i = 0, n = t.numel(); i < n; ++i) write(t, i, draw());
    return t;
}
}  // namespace

Tensor randn(const Shape& shape, Generator& gen, Dtype dtype) {
    return random_tensor("randn", shape, dtype, [&] { return gen.normal(); });
}
Tensor rand(const Shape& shape, Generator& gen, Dtype dtype) {
    return random_tensor("rand", shape, dtype, [&] { return gen.uniform(); });
}
Tensor uniform(const Shape& shape, double low, double high, Generator& gen, Dtype dtype) {
    if (!(low <= high)) throw ValueError(fmt::format("uniform: low {} is above high {}", low, high));
    return random_tensor("uniform", shape, dtype, [&] { return low + (high - low) * gen.uniform(); });
}

}  // namespace autograd
